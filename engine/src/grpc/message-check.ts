/**
 * A request message written as JSON, checked against its message type before it is sent:
 * protobufjs' `fromObject` passes over a field it does not know without a word, so a typo or a
 * snake_case name under the default lowerCamelCase names would send an empty field. Here it is
 * an error naming the field, the message's line and the fields there are.
 */
import type { MethodDefinition, Options, PackageDefinition } from '@grpc/proto-loader';
import { EngineError } from '../errors.js';

/** A field of proto-loader's descriptor: `name` as the loader spells it (lowerCamelCase unless keepCase). */
interface FieldDescriptor {
  name: string;
  label?: string;
  type?: string;
  typeName?: string;
}

/** A message type of proto-loader's descriptor. */
interface TypeDescriptor {
  name: string;
  field?: FieldDescriptor[];
  options?: { mapEntry?: boolean } | null;
}

/**
 * Parse and check one request message.
 * @param text the message's JSON (`{}` for an empty message).
 * @param line the message's first line in the file.
 * @param def the package definition, whose message types the nested fields are checked against.
 * @param encoded given: told the message's wire bytes (serialized here to check it), so the call
 *   need not serialize it again.
 * @returns the object to send.
 * @throws EngineError `bad-grpc-message`: not JSON, not an object, an unknown field, a value of
 *   the wrong type (protobufjs' message names the field).
 */
export function checkMessage(text: string, m: MethodDefinition<object, object>, options: Options, line: number, def: PackageDefinition = {}, encoded?: (o: object, bytes: Buffer) => void): object {
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch (e) {
    throw new EngineError('bad-grpc-message', `the request message is not JSON: ${(e as Error).message}`, { line, hint: 'Write the message as a JSON object, e.g. {"name": "world"}.' });
  }
  const type = m.requestType.type as unknown as TypeDescriptor;
  if (typeof o !== 'object' || o === null || Array.isArray(o)) {
    throw new EngineError('bad-grpc-message', `the request message must be a JSON object (${type.name})`, { line, hint: 'Write {"field": value, ...}; {} sends an empty message.' });
  }
  checkFields(o as Record<string, unknown>, type, '', options, line, def);
  try {
    encoded?.(o as object, m.requestSerialize(o as object));
  } catch (e) {
    throw new EngineError('bad-grpc-message', `the request message does not fit ${type.name}: ${(e as Error).message}`, { line, hint: 'Check the field named against the proto.' });
  }
  return o;
}

/** The fields of `o` (at `at`, e.g. `tags[0].`) against `type`, nested messages too. */
function checkFields(o: Record<string, unknown>, type: TypeDescriptor, at: string, options: Options, line: number, def: PackageDefinition): void {
  const fields = type.field ?? [];
  const names = fields.map((f) => f.name);
  const unknown = Object.keys(o).find((k) => !names.includes(k));
  if (unknown !== undefined) {
    const camel = unknown.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    const snake = !options.keepCase && camel !== unknown && names.includes(camel);
    throw new EngineError('bad-grpc-message', `${type.name} has no field ${unknown}${at ? ` (at ${at}${unknown})` : ''}`, {
      line,
      hint: snake ? `Write ${camel} (the lowerCamelCase name), or add keepCase: true below the proto line.` : `Its fields: ${names.join(', ') || '(none)'}.`,
      details: { field: `${at}${unknown}`, fields: names },
    });
  }
  for (const f of fields) {
    const v = o[f.name];
    if (f.type !== 'TYPE_MESSAGE' || v === undefined || v === null) continue;
    // proto-loader names the type as written in the proto (`Tag`, `pkg.Tag`, `.pkg.Tag`).
    const tn = (f.typeName ?? '').replace(/^\./, '');
    const key = tn in def ? tn : Object.keys(def).find((k) => k.endsWith(`.${tn}`));
    const nested = (key ? def[key] : undefined) as { type?: TypeDescriptor } | undefined;
    // Maps and well-known types (Struct, Any, ...) take other JSON shapes: protobufjs checks them.
    if (!nested?.type || nested.type.options?.mapEntry || (f.typeName ?? '').includes('google.protobuf.')) continue;
    const items = f.label === 'LABEL_REPEATED' && Array.isArray(v) ? v.map((x, k) => [x, `${at}${f.name}[${k}].`] as const) : [[v, `${at}${f.name}.`] as const];
    for (const [x, where] of items) {
      if (typeof x === 'object' && x !== null && !Array.isArray(x)) checkFields(x as Record<string, unknown>, nested.type, where, options, line, def);
    }
  }
}
