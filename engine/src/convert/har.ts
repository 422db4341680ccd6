/**
 * HAR 1.2 (the browser network tab's "Save all as HAR"; W3C draft "HTTP Archive 1.2") -> the
 * imported model: one request per entry, in order, named `METHOD path`, in one `.http` file.
 * Headers the engine writes itself (HTTP/2 pseudo-headers `:authority`..., `Host`,
 * `Content-Length`, `Connection`) are left out: the engine sends its own, from the URL and
 * the body (docs/import.md, "HAR"). `postData`: `text` as the body with its `mimeType`; `params`
 * without `text` as a urlencoded or multipart body (file parts by `fileName`, as `< ./name`).
 */
import type { ImportedField, ImportedHeader, ImportedRequest, ImportResult } from './model.js';
import { emptyResult } from './model.js';

interface HarEntry {
  request?: {
    method?: string;
    url?: string;
    headers?: { name?: string; value?: string }[];
    queryString?: { name?: string; value?: string }[];
    cookies?: { name?: string; value?: string }[];
    postData?: { mimeType?: string; text?: string; params?: { name?: string; value?: string; fileName?: string; contentType?: string }[] };
  };
}

/** Headers the engine computes from the URL and the body. */
const COMPUTED = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive']);

/** A HAR document (`{log: {version, entries}}`) -> one `.http` file named `fileBase.http`. */
export function importHar(doc: { log: { version?: string; entries?: HarEntry[] } }, fileBase: string): ImportResult {
  const result = emptyResult(`HAR ${doc.log.version ?? '1.2'}`);
  const requests: ImportedRequest[] = [];
  for (const [i, e] of (doc.log.entries ?? []).entries()) {
    const where = `log.entries[${i}]`;
    const r = e.request;
    if (!r?.url || !r.method) {
      result.warnings.push({ where, message: 'no request method or URL; the entry is left out' });
      continue;
    }
    let name = `${r.method} ${r.url}`;
    try {
      const u = new URL(r.url);
      name = `${r.method} ${u.pathname}`;
    } catch {
      result.warnings.push({ where, message: `the URL ${r.url} does not parse; written as it is` });
    }
    const headers: ImportedHeader[] = (r.headers ?? []).filter((h) => h.name && !h.name.startsWith(':') && !COMPUTED.has(h.name.toLowerCase())).map((h) => ({ name: h.name!, value: h.value ?? '' }));
    // `queryString` and `cookies` repeat the URL's query and the Cookie header in browsers'
    // HARs; hand-written ones (httpsnippet's) give them alone: what the URL or headers lack is added.
    let url = r.url;
    const inUrl = new URLSearchParams(url.split('?')[1]?.split('#')[0] ?? '');
    const more = (r.queryString ?? []).filter((q) => q.name && !inUrl.getAll(q.name).includes(q.value ?? ''));
    if (more.length) url += (url.includes('?') ? '&' : '?') + more.map((q) => `${encodeURIComponent(q.name!)}=${encodeURIComponent(q.value ?? '')}`).join('&');
    if (r.cookies?.length && !headers.some((h) => h.name.toLowerCase() === 'cookie')) headers.push({ name: 'Cookie', value: r.cookies.map((c) => `${c.name}=${c.value ?? ''}`).join('; ') });
    const req: ImportedRequest = { name, folder: [], comments: [], method: r.method, url, headers };
    const pd = r.postData;
    if (pd) {
      if (pd.mimeType && !headers.some((h) => h.name.toLowerCase() === 'content-type')) headers.push({ name: 'Content-Type', value: pd.mimeType });
      if (pd.text) req.body = { kind: 'raw', text: pd.text };
      else if (pd.params?.length) {
        const fields: ImportedField[] = pd.params.map((p) => ({ name: p.name ?? '', value: p.fileName ? undefined : (p.value ?? ''), file: p.fileName || undefined, contentType: p.contentType }));
        req.body = /multipart/i.test(pd.mimeType ?? '') ? { kind: 'multipart', fields } : { kind: 'urlencoded', fields };
        if (fields.some((f) => f.file)) result.warnings.push({ where, message: 'the HAR holds no file contents; the file parts read files of those names beside the .http file' });
      }
      if (pd.text && /multipart/i.test(pd.mimeType ?? '')) result.warnings.push({ where, message: 'a multipart body as the browser recorded it: its boundary is in the Content-Type; binary parts may not have survived the HAR' });
    }
    requests.push(req);
  }
  result.files.push({ path: `${fileBase}.http`, vars: [], header: [`Imported from the HAR file ${fileBase} by sheet import.`], requests });
  return result;
}
