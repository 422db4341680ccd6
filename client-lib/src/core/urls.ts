/**
 * URL building: the parent chain of an object to a path, ids encoded, query strings, and the
 * `$http` config of one call (Restangular's `resource()`). Also the field access (`mget`) the
 * other parts use.
 */
import { defaults } from './config.js';
import type { Core } from './context.js';
import { HTTP_METHOD, isObject, isEmpty, hasHeader, isBinaryBody, metaOf, Meta } from './meta.js';
import type { HttpConfig } from './types.js';
import { encodeUriQuery, normalizeUrl } from './url.js';

/** Adds this part's functions to `c` (see context.ts). */
export function installUrls(c: Core): void {
  const { config } = c;
  const F = () => config.clientFields;
  // Meta values of enhanced objects; for plain objects given by the user, the named field.
  const mget = (x: any, key: keyof Meta): any => {
    const m = metaOf(x);
    if (m) return m[key];
    if (x == null) return undefined;
    const name = key === 'parentList' ? undefined : F()[key === 'etag' ? 'etag' : key];
    return name ? x[name] : undefined;
  };
  const isClientized = (obj: any): boolean => !!metaOf(obj);

  // ---------------------------------------------------------------- URLs
  /** The URL of `elem`: its parents' URL (or the base URL), then its route and id or self link. */
  function base(elem: any): string {
    if (!elem) return config.baseUrl;
    const parent = mget(elem, 'parentResource');
    const acum: string = parent ? base(parent) : config.baseUrl;
    let elemUrl: string;
    {
      const selfLink = config.getUrlFromElem(elem);
      if (selfLink) {
        if (config.isAbsoluteUrl(selfLink)) return selfLink;
        elemUrl = selfLink;
      } else {
        elemUrl = mget(elem, 'route');
        if (mget(elem, 'clientCollection')) {
          const ids = mget(elem, 'ids');
          if (ids) elemUrl += '/' + ids.map((id: any) => encodeId(id)).join(',');
        } else {
          const id = config.useCannonicalId ? config.getCannonicalIdFromElem(elem) : config.getIdFromElem(elem);
          if (config.isValidId(id) && !mget(elem, 'singleOne')) elemUrl += '/' + encodeId(id);
        }
      }
    }
    return normalizeUrl((acum.charCodeAt(acum.length - 1) === 47 ? acum.slice(0, -1) : acum) + '/' + elemUrl);
  }

  const encodeId = (id: any): string => (config.encodeIds ? encodeURIComponent(id) : String(id));

  function fetchUrl(current: any, what?: any): string {
    let url = base(current);
    if (what) url += '/' + what;
    return url;
  }

  function fetchRequestedUrl(current: any, what?: any): string {
    const url = fetchUrl(current, what);
    const params = mget(current, 'reqParams');
    const suffix = config.requestSuffix || '';
    if (!params) return url + suffix;
    const parts: string[] = [];
    for (const key of Object.keys(params).sort()) {
      let value = params[key];
      if (value === null || value === undefined) continue;
      if (!Array.isArray(value)) value = [value];
      for (let v of value) {
        if (isObject(v)) v = JSON.stringify(v);
        parts.push(encodeUriQuery(key) + '=' + encodeUriQuery(v));
      }
    }
    return url + suffix + (url.indexOf('?') === -1 ? '?' : '&') + parts.join('&');
  }

  /** The `$http` config of one call (Restangular's `resource()`). */
  function httpConfigFor(
    current: any,
    localHttpConfig: any,
    callHeaders: any,
    callParams: any,
    what: any,
    etag: any,
    callOperation: string,
    data: any,
    hasData: boolean,
    baseUrl?: string,
  ): HttpConfig {
    const params = Object.assign({}, config.defaultRequestParams.common, config.defaultRequestParams[callOperation === 'getList' ? 'get' : callOperation], callParams);
    const headers = defaults(Object.assign({}, callHeaders), config.defaultHeaders);
    if (etag) {
      if (!config.isSafe(callOperation)) headers['If-Match'] = etag;
      else headers['If-None-Match'] = etag;
    }
    let url = baseUrl === undefined ? base(current) : baseUrl;
    if (what || what === 0) url += (/\/$/.test(url) ? '' : '/') + what;
    const suffix = config.requestSuffix;
    if (suffix && url.indexOf(suffix, url.length - suffix.length) === -1 && !config.getUrlFromElem(current)) url += suffix;
    const m = metaOf(current);
    if (m) m.httpConfig = undefined;
    const cfg: any = { method: HTTP_METHOD[callOperation], headers, url };
    if (!isEmpty(params)) cfg.params = params;
    if (hasData && data !== undefined && data !== null) {
      cfg.data = data;
      // $http only defaults a JSON Content-Type for POST, PUT and PATCH; a DELETE (or overridden
      // GET) with a JSON body would go as text/plain.
      if (isObject(data) && !hasHeader(headers, 'Content-Type') && !isBinaryBody(data)) headers['Content-Type'] = 'application/json;charset=utf-8';
    }
    return config.withHttpValues(localHttpConfig, cfg);
  }

  c.encodeId = encodeId;
  c.fetchRequestedUrl = fetchRequestedUrl;
  c.fetchUrl = fetchUrl;
  c.httpConfigFor = httpConfigFor;
  c.isClientized = isClientized;
  c.mget = mget;
}
