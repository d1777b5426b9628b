// System utilities: ping, time-ordered UUIDs, and the markdown preview as a live editor beside
// its sanitised output.
import { useEffect, useState } from 'preact/hooks';
import { api, apiBare } from '../api';
import { CopyButton, TextField } from '../ui/controls';
import { useAction, useAsync } from '../ui/async';
import { ErrorText, Failed, Loading, Progress } from '../ui/states';

interface PingAnswer {
  items: { authenticated: boolean; username: string; version: string };
}

function Ping() {
  const [answer, setAnswer] = useState<{ ms: number; data: PingAnswer } | null>(null);
  const ping = useAction(async () => {
    const started = performance.now();
    const data = await api<PingAnswer>('/api/core/system/ping');
    setAnswer({ ms: Math.round(performance.now() - started), data });
  });
  return (
    <section aria-labelledby="ping-h">
      <h2 id="ping-h">Ping</h2>
      <button type="button" onClick={() => void ping.run()} disabled={ping.busy}>
        Ping the server
      </button>
      <ErrorText error={ping.error} />
      <p class="result" role="status">
        {answer
          ? `Answered in ${answer.ms} ms: version ${answer.data.items.version}, ` +
            (answer.data.items.authenticated ? `authenticated as ${answer.data.items.username}.` : 'not authenticated.')
          : ' '}
      </p>
    </section>
  );
}

function Uuids() {
  const [n, setN] = useState('5');
  const [format, setFormat] = useState<'sqlserver' | 'rfc'>('sqlserver');
  const [uuids, setUuids] = useState<string[]>([]);
  const make = useAction(async () => setUuids(await apiBare<string[]>('/api/core/system/uuids', { n, format })));
  return (
    <section aria-labelledby="uuid-h">
      <h2 id="uuid-h">UUIDs</h2>
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void make.run();
        }}
      >
        <TextField label="How many" type="number" min={1} max={10000} value={n} onInput={setN} required />
        <div class="field">
          <label for="uuid-format">Format</label>
          <select
            id="uuid-format"
            value={format}
            onChange={(e) => setFormat((e.target as HTMLSelectElement).value as 'rfc')}
          >
            <option value="sqlserver">SQL Server order (uniqueidentifier)</option>
            <option value="rfc">RFC 9562 UUIDv7</option>
          </select>
        </div>
        <button type="submit" disabled={make.busy}>
          Generate
        </button>
      </form>
      <ErrorText error={make.error} />
      {uuids.length > 0 && (
        <div class="uuids">
          <pre data-testid="uuids">{uuids.join('\n')}</pre>
          <CopyButton text={uuids.join('\n')} label="Copy all" />
        </div>
      )}
    </section>
  );
}

const SAMPLE =
  '# Preview\n\nType **markdown** here: the sanitised HTML appears beside it.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n';

function Preview() {
  const [source, setSource] = useState(SAMPLE);
  const [html, setHtml] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const abort = new AbortController();
    // Typing pauses 250 ms before the preview follows: one request per pause, not per key.
    const t = setTimeout(async () => {
      setBusy(true);
      try {
        const r = await api<{ html: string }>('/api/core/system/preview', {
          method: 'POST',
          body: { painput: source, patype: 'markdown' },
          signal: abort.signal,
        });
        setHtml(r.html);
        setError(null);
      } catch (err) {
        if ((err as Error).name !== 'AbortError') setError(err);
      } finally {
        if (!abort.signal.aborted) setBusy(false);
      }
    }, 250);
    return () => {
      clearTimeout(t);
      abort.abort();
    };
  }, [source]);
  return (
    <section aria-labelledby="preview-h">
      <h2 id="preview-h">Markdown preview</h2>
      <div class="split">
        <div class="field">
          <label for="md-source">Markdown</label>
          <textarea
            id="md-source"
            rows={12}
            value={source}
            onInput={(e) => setSource((e.target as HTMLTextAreaElement).value)}
          />
        </div>
        <div class="field">
          <span class="label" id="md-output-label">
            Sanitised HTML
          </span>
          <Progress active={busy} label="Rendering the preview" />
          {/* The server's sanitiser made this HTML safe; it is the preview's whole point. */}
          <section
            class="preview-output"
            aria-labelledby="md-output-label"
            data-testid="preview-output"
            dangerouslySetInnerHTML={{ __html: html }}
          />
          <ErrorText error={error} />
        </div>
      </div>
    </section>
  );
}

interface Instance {
  version: string;
  database: string;
  apps: string[];
  started_at: string;
  uptime_seconds: number;
  node_version: string;
  render_pool: { workers: number; queue_limit: number };
  preview_pool: { workers: number; queue_limit: number };
}

function InstanceInfo() {
  const [info, reload] = useAsync(() => api<Instance>('/api/core/system/instance'), []);
  return (
    <section aria-labelledby="instance-h">
      <h2 id="instance-h">Instance</h2>
      {info.state === 'loading' && <Loading rows={2} />}
      {info.state === 'failed' && <Failed error={info.error} retry={reload} />}
      {info.state === 'loaded' && (
        <dl class="facts" data-testid="instance">
          <dt>Version</dt>
          <dd>{info.data.version}</dd>
          <dt>Database</dt>
          <dd>{info.data.database === 'postgresql' ? 'PostgreSQL' : 'SQLite'}</dd>
          <dt>Apps</dt>
          <dd>{info.data.apps.join(', ') || 'none'}</dd>
          <dt>Running since</dt>
          <dd>
            {new Date(info.data.started_at).toLocaleString()} ({Math.floor(info.data.uptime_seconds / 3600)} h{' '}
            {Math.floor((info.data.uptime_seconds % 3600) / 60)} min)
          </dd>
          <dt>Node.js</dt>
          <dd>{info.data.node_version}</dd>
          <dt>Render workers</dt>
          <dd>
            {info.data.render_pool.workers} (queue up to {info.data.render_pool.queue_limit})
          </dd>
        </dl>
      )}
    </section>
  );
}

export function SystemScreen({ admin }: { admin: boolean }) {
  return (
    <>
      <h1>System</h1>
      {admin && <InstanceInfo />}
      <Ping />
      <Uuids />
      <Preview />
    </>
  );
}
