/**
 * A request message written as JSON, checked against its message type before it is sent:
 * protobufjs' `fromObject` passes over a field it does not know without a word, so a typo or a
 * snake_case name under the default lowerCamelCase names would send an empty field. Here it is
 * an error naming the field, the message's line and the fields there are.
 */
import type { MethodDefinition, Options } from '@grpc/proto-loader';
import { EngineError } from '../errors.js';

/** A field of proto-loader's descriptor: `name` as the loader spells it (lowerCamelCase unless keepCase). */
interface FieldDescriptor {
  name: string;
}

/**
 * Parse and check one request message.
 * @param text the message's JSON (`{}` for an empty message).
 * @param line the message's first line in the file.
 * @returns the object to send.
 * @throws EngineError `bad-grpc-message`: not JSON, not an object, an unknown field, a value of
 *   the wrong type (protobufjs' message names the field).
 */
export function checkMessage(text: string, m: MethodDefinition<object, object>, options: Options, line: number): object {
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch (e) {
    throw new EngineError('bad-grpc-message', `the request message is not JSON: ${(e as Error).message}`, { line, hint: 'Write the message as a JSON object, e.g. {"name": "world"}.' });
  }
  const type = m.requestType.type as unknown as { name: string; field?: FieldDescriptor[] };
  if (typeof o !== 'object' || o === null || Array.isArray(o)) {
    throw new EngineError('bad-grpc-message', `the request message must be a JSON object (${type.name})`, { line, hint: 'Write {"field": value, ...}; {} sends an empty message.' });
  }
  const names = (type.field ?? []).map((f) => f.name);
  const unknown = Object.keys(o).find((k) => !names.includes(k));
  if (unknown !== undefined) {
    const camel = unknown.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    const snake = !options.keepCase && camel !== unknown && names.includes(camel);
    throw new EngineError('bad-grpc-message', `${type.name} has no field ${unknown}`, {
      line,
      hint: snake ? `Write ${camel} (the lowerCamelCase name), or add keepCase: true below the proto line.` : `Its fields: ${names.join(', ') || '(none)'}.`,
      details: { field: unknown, fields: names },
    });
  }
  try {
    m.requestSerialize(o);
  } catch (e) {
    throw new EngineError('bad-grpc-message', `the request message does not fit ${type.name}: ${(e as Error).message}`, { line, hint: 'Check the field named against the proto.' });
  }
  return o;
}
