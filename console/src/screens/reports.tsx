// Reports: the apps and SRS definitions the caller may use (GET /api/srs); for one definition, a
// form built from its params, a template to pick, and the outputs: the HTML previewed inline,
// the PDF and the merged .frx downloaded, the starter template (srs_administrator) and the data
// the template receives. Failures (command_failed, template_error…) are shown in words.
import { useState } from 'preact/hooks';
import { api, apiBlob } from '../api';
import { href } from '../router';
import type { Session } from '../session';
import { useAction, useAsync } from '../ui/async';
import { Empty, ErrorText, Failed, Loading, Progress } from '../ui/states';
import { DataTree } from './data-tree';

interface Param {
  name: string;
  type: string;
  default: string | null;
}
interface Definition {
  id: string;
  label: string;
  params: Param[];
}
interface CatalogApp {
  name: string;
  definitions: Definition[];
  templates: string[];
  errors?: string[];
}

function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function ParamField({ param, value, onChange }: { param: Param; value: string; onChange: (v: string) => void }) {
  const id = `param-${param.name}`;
  if (param.type === 'bool')
    return (
      <label class="check field" for={id}>
        <input
          id={id}
          type="checkbox"
          checked={/^(true|1|yes|on)$/i.test(value)}
          onChange={(e) => onChange(String((e.target as HTMLInputElement).checked))}
        />
        {param.name}
      </label>
    );
  const type = param.type === 'int' || param.type === 'decimal' ? 'number' : param.type === 'date' ? 'date' : 'text';
  // Preact types an input's attributes by its `type`; these are valid for each of the three.
  const attributes = { type, step: param.type === 'decimal' ? 'any' : undefined } as { type: 'number' };
  return (
    <div class="field">
      <label for={id}>{param.name}</label>
      <input id={id} {...attributes} value={value} onInput={(e) => onChange((e.target as HTMLInputElement).value)} />
      <small class="hint">{param.type}</small>
    </div>
  );
}

function DefinitionPanel({ app, def, session }: { app: CatalogApp; def: Definition; session: Session }) {
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(def.params.map((p) => [p.name, p.default ?? ''])),
  );
  const [template, setTemplate] = useState(app.templates[0] ?? '');
  const [html, setHtml] = useState<string | null>(null);
  const [data, setData] = useState<unknown>(null);
  const query = () => ({
    app_name: app.name,
    ...Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '')),
  });
  const base = `/api/srs/${encodeURIComponent(def.id)}`;
  const output = useAction(async (kind: 'html' | 'pdf' | 'frx' | 'starter' | 'data') => {
    setHtml(null);
    setData(null);
    if (kind === 'data') {
      setData(await api<unknown>(`${base}/data.json`, { query: query() }));
      return;
    }
    const path =
      kind === 'starter'
        ? `${base}/_new.frx`
        : `${base}/${encodeURIComponent(template)}.frx${kind === 'frx' ? '' : `.${kind}`}`;
    const blob = await apiBlob(path, query());
    if (kind === 'html') setHtml(await blob.text());
    else saveBlob(blob, kind === 'starter' ? `${def.id}-starter.frx` : `${template}.${kind === 'frx' ? 'frx' : 'pdf'}`);
  });
  return (
    <section aria-labelledby="def-h">
      <h2 id="def-h">{def.label}</h2>
      <form
        class="grid-form"
        onSubmit={(e) => {
          e.preventDefault();
          void output.run('html');
        }}
      >
        {def.params.map((p) => (
          <ParamField
            key={p.name}
            param={p}
            value={values[p.name] ?? ''}
            onChange={(v) => setValues({ ...values, [p.name]: v })}
          />
        ))}
        <div class="field">
          <label for="template">Template</label>
          <select id="template" value={template} onChange={(e) => setTemplate((e.target as HTMLSelectElement).value)}>
            {app.templates.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div class="form-end actions-row">
          <button type="submit" disabled={output.busy || !template}>
            Preview HTML
          </button>
          <button
            type="button"
            class="secondary"
            disabled={output.busy || !template}
            onClick={() => void output.run('pdf')}
          >
            Download PDF
          </button>
          <button
            type="button"
            class="secondary"
            disabled={output.busy || !template}
            onClick={() => void output.run('frx')}
          >
            Download merged .frx
          </button>
          <button type="button" class="secondary" disabled={output.busy} onClick={() => void output.run('data')}>
            Show the data
          </button>
          {session.roles.includes('srs_administrator') && (
            <button type="button" class="secondary" disabled={output.busy} onClick={() => void output.run('starter')}>
              Starter template
            </button>
          )}
        </div>
      </form>
      <Progress active={output.busy} label="Rendering the report" />
      {output.error ? (
        <div class="notice error">
          <ErrorText error={output.error} />
        </div>
      ) : null}
      {html !== null && <iframe class="report-preview" title={`Preview of ${def.label}`} sandbox="" srcdoc={html} />}
      {data !== null && (
        <section class="tree" aria-label="The data the template receives">
          <DataTree name="data" value={data} open />
        </section>
      )}
    </section>
  );
}

export function ReportsScreen({ session, parts }: { session: Session; parts: string[] }) {
  const [catalog, reload] = useAsync(() => api<{ apps: CatalogApp[] }>('/api/srs'), []);
  const [appName, defId] = parts;
  if (catalog.state === 'loading')
    return (
      <>
        <h1>Reports</h1>
        <Loading rows={5} />
      </>
    );
  if (catalog.state === 'failed')
    return (
      <>
        <h1>Reports</h1>
        <Failed error={catalog.error} retry={reload} />
      </>
    );
  const apps = catalog.data.apps;
  const app = apps.find((a) => a.name === appName);
  const def = app?.definitions.find((d) => d.id === defId);
  return (
    <>
      <h1>Reports</h1>
      {apps.length === 0 ? (
        <Empty title="No report is open to you.">An administrator grants access with a role app_&lt;name&gt;.</Empty>
      ) : (
        <div class="reports">
          <nav aria-label="Reports" class="report-list">
            {apps.map((a) => (
              <div key={a.name}>
                <h2>{a.name}</h2>
                {a.definitions.length === 0 ? (
                  <p class="hint">No report definitions.</p>
                ) : (
                  <ul>
                    {a.definitions.map((d) => (
                      <li key={d.id}>
                        <a
                          href={href('reports', a.name, d.id)}
                          aria-current={a === app && d === def ? 'page' : undefined}
                        >
                          {d.label}
                        </a>
                      </li>
                    ))}
                  </ul>
                )}
                {a.errors?.map((e) => (
                  <p key={e} class="field-error">
                    {e}
                  </p>
                ))}
              </div>
            ))}
          </nav>
          <div class="report-panel">
            {app && def ? (
              <DefinitionPanel key={`${app.name}/${def.id}`} app={app} def={def} session={session} />
            ) : (
              <Empty title="Pick a report.">Its parameters, previews and downloads appear here.</Empty>
            )}
          </div>
        </div>
      )}
    </>
  );
}
