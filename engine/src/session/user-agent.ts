/**
 * The session's default `User-Agent` (the `userAgent` setting; issue 37 item 10): sent when the
 * request sets none, as curl sends `curl/VERSION`, VS Code REST Client and httpyac their own.
 * Some servers refuse a request without one (api.github.com answers 403: "Request forbidden
 * by administrative rules. Please make sure your request has a User-Agent header").
 */
import { headerValue } from '../model.js';
import type { Request } from '../model.js';

/**
 * `request` with `User-Agent: userAgent` added after its headers when it has no User-Agent
 * (any case) and `userAgent` is a non-empty string; else `request` itself.
 */
export function withUserAgent(request: Request, userAgent: string | null | undefined): Request {
  if (!userAgent || headerValue(request.headers, 'user-agent') !== undefined) return request;
  return { ...request, headers: [...request.headers, ['User-Agent', userAgent]] };
}
