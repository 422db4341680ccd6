/**
 * Restangular's lowercase field names after the rename (issue 38): `elem.restangularEtag`,
 * `elem.restangularized`, `elem.restangularCollection` read `undefined` on an element of this
 * library, as the migration table says (they are `clientEtag`, `clientized`,
 * `clientCollection`); in development they also warn once per service, naming the new field, so
 * a missed rename is not silent. Development means `process.env.NODE_ENV` is not
 * `'production'` (bundlers set it in production builds; `dist/client.min.js` is built as
 * production, `dist/client.js` as development). Assigning one defines an own data property, as
 * before. A name the app kept through `setClientFields` is a real field and is left alone.
 */
import type { ClientFields } from './types.js';

/** Restangular's name -> the key of the field in `ClientFields`. */
const LEGACY: Record<string, keyof ClientFields> = {
  restangularEtag: 'etag',
  restangularized: 'clientized',
  restangularCollection: 'clientCollection',
};

// Node's global as far as used here, without requiring @types/node of the package's users.
declare const process: { env?: Record<string, string | undefined> } | undefined;

function production(): boolean {
  // Written out so bundlers replace it (an app's production build drops the warnings).
  return typeof process !== 'undefined' && !!process && !!process.env && process.env.NODE_ENV === 'production';
}

/**
 * Define the legacy names on `protos` (the shared element and collection prototypes).
 * @param fields the current field names (`configuration.clientFields`)
 * @param warned the names already warned about by this service (shared across rebuilds)
 * @param warn where warnings go (console.warn)
 */
export function defineLegacyFields(protos: object[], fields: ClientFields, warned: Set<string>, warn: (message: string) => void): void {
  const current = new Set(Object.values(fields));
  for (const old of Object.keys(LEGACY)) {
    if (current.has(old)) continue;
    const now = String(fields[LEGACY[old]]);
    for (const p of protos) {
      Object.defineProperty(p, old, {
        get() {
          if (!warned.has(old) && !production()) {
            warned.add(old);
            warn(`angular-client-rest: '${old}' is Restangular's name and reads undefined here; use '${now}' (README, "Migrating from Restangular 1.6")`);
          }
          return undefined;
        },
        set(this: any, v: any) {
          Object.defineProperty(this, old, { value: v, writable: true, configurable: true, enumerable: true });
        },
        configurable: true,
        enumerable: false,
      });
    }
  }
}
