import { describe, expect, it } from 'vitest';
import { isStreamSeparator, splitStreamMessages } from '../../engine/src/sheet/stream-messages.js';

describe('splitStreamMessages (JetBrains === separators)', () => {
  it('keeps a body without separators as one message', () => {
    expect(splitStreamMessages('{"a": 1}\n', 7)).toEqual([{ kind: 'send', text: '{"a": 1}', line: 7 }]);
  });

  it('splits on === and reads === wait-for-server as a wait, in order', () => {
    const body = ['===', '{', '  "m": "hi"', '}', '=== wait-for-server', '=== wait-for-server', '===', '', 'second', ''].join('\n');
    expect(splitStreamMessages(body, 10)).toEqual([
      { kind: 'send', text: '{\n  "m": "hi"\n}', line: 11 },
      { kind: 'wait', line: 14 },
      { kind: 'wait', line: 15 },
      { kind: 'send', text: 'second', line: 18 },
    ]);
  });

  it('drops empty messages and accepts CRLF', () => {
    expect(splitStreamMessages('one\r\n===\r\n\r\n===\r\ntwo', 1)).toEqual([
      { kind: 'send', text: 'one', line: 1 },
      { kind: 'send', text: 'two', line: 5 },
    ]);
  });

  it('does not take ==== or text after === as a separator', () => {
    expect(isStreamSeparator('====')).toBe(false);
    expect(isStreamSeparator('=== wait')).toBe(false);
    expect(isStreamSeparator('  ===  ')).toBe(true);
    expect(splitStreamMessages('a == b\n====', 1)).toEqual([{ kind: 'send', text: 'a == b\n====', line: 1 }]);
  });

  it('gives no step for a blank body', () => {
    expect(splitStreamMessages('\n\n', 1)).toEqual([]);
  });
});
