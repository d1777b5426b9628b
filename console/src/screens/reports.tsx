// Reports: the apps and SRS definitions the caller may use (GET /api/srs); for one definition, a
// form built from its params, a template to pick, and the outputs: the HTML previewed inline,
// the PDF and the merged .frx downloaded, the starter template (srs_administrator) and the data
// the template receives. Failures (command_failed, template_error…) are shown in words. The
// template picked first is the definition's best fitting one, so a report renders as it opens;
// a definition no template fits says so instead of rendering another report's template blank.
import { useState } from 'preact/hooks';
import { api, apiBlob } from '../api';
import { href } from '../router';
import type { Session } from '../session';
import { useAction, useAsync } from '../ui/async';
import { Empty, ErrorText, Failed, Loading, Progress } from '../ui/states';
import { DataTree } from './data-tree';
import { type Param, ParamField, ReportPreview } from './report-parts';

interface Definition {
  id: string;
  label: string;
  params: Param[];
  /** The app's templates that fit this definition, best first (the server decides). */
  templates: string[];
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

function DefinitionPanel({ app, def, session }: { app: CatalogApp; def: Definition; session: Session }) {
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(def.params.map((p) => [p.name, p.default ?? ''])),
  );
  const [template, setTemplate] = useState(def.templates[0] ?? '');
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
      {def.templates.length === 0 && (
        <div class="notice error" role="status">
          No template of the app {app.name} fits this report: the definition names none, and no template in the app's
          templates folder has data named like its commands. It cannot be previewed or downloaded until one is added;
          its data can still be shown
          {session.roles.includes('srs_administrator') ? ', and the starter template is a template made for it.' : '.'}
        </div>
      )}
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
        {def.templates.length > 0 && (
          <div class="field">
            <label for="template">Template</label>
            <select id="template" value={template} onChange={(e) => setTemplate((e.target as HTMLSelectElement).value)}>
              {def.templates.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </div>
        )}
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
      {html !== null && <ReportPreview html={html} title={`Preview of ${def.label}`} />}
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
