import { describe, expect, it } from 'vitest';
import {
  Kysely,
  PostgresAdapter,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteQueryCompiler,
  DummyDriver,
  SqliteIntrospector,
  PostgresIntrospector,
} from 'kysely';
import { bindNamedParameters, splitStatements } from '../../src/db/sql-text.js';

const sqlite = new Kysely<any>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});
const postgres = new Kysely<any>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe('splitStatements', () => {
  it('splits on semicolons outside literals, identifiers, comments and dollar quotes', () => {
    const script = `
      insert into a values ('x;y'); -- a comment; with a semicolon
      update "we;ird" set v = 'it''s; fine';
      /* block; comment */
      create function f() returns int as $body$ begin; return 1; end $body$ language plpgsql;
      select 1
    `;
    expect(splitStatements(script)).toEqual([
      "insert into a values ('x;y')",
      `-- a comment; with a semicolon\n      update "we;ird" set v = 'it''s; fine'`,
      '/* block; comment */\n      create function f() returns int as $body$ begin; return 1; end $body$ ' +
        'language plpgsql',
      'select 1',
    ]);
  });
  it('drops empty and comment-only statements', () => {
    expect(splitStatements(';;  ; -- nothing\n')).toEqual([]);
    expect(splitStatements('')).toEqual([]);
  });
});

describe('bindNamedParameters', () => {
  const values = { username: 'bob', user_id: 'id-1', cancelled_by: 'admin' };
  it('binds :name markers as parameters in each dialect', () => {
    const b = bindNamedParameters("insert into log values (:username, :user_id, ':username', :Username)", values, {
      prefixes: [':'],
    });
    expect(b.used).toEqual(['username', 'user_id']);
    const s = b.query.compile(sqlite);
    expect(s.sql).toBe("insert into log values (?, ?, ':username', ?)");
    expect(s.parameters).toEqual(['bob', 'id-1', 'bob']);
    const p = b.query.compile(postgres);
    expect(p.sql).toBe("insert into log values ($1, $2, ':username', $3)");
  });
  it('leaves casts, emails, @@variables and unknown names alone', () => {
    const b = bindNamedParameters(
      "select x::text, 'a@b.c', @@version, @customer, @username from t where y = @other",
      { username: 'u', customer: 5 },
      { prefixes: ['@', ':'] },
    );
    const s = b.query.compile(sqlite);
    expect(s.sql).toBe("select x::text, 'a@b.c', @@version, ?, ? from t where y = @other");
    expect(s.parameters).toEqual([5, 'u']);
    expect(b.unknown).toEqual(['other']);
  });
  it('never splices a value into the SQL text', () => {
    const evil = "'); drop table users; --";
    const s = bindNamedParameters('select :username', { username: evil }, { prefixes: [':'] }).query.compile(sqlite);
    expect(s.sql).toBe('select ?');
    expect(s.parameters).toEqual([evil]);
  });
});
