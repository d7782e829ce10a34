import { describe, expect, it } from 'vitest';
import { parseJsonLine } from '../src/sources/json-line.js';

const isEntry = (value: Record<string, unknown>) => typeof value['type'] === 'string' && 'timestamp' in value;

describe('parseJsonLine', () => {
  it('reads a whole line as one value', () => {
    expect(parseJsonLine('{"type":"x","timestamp":"t"}', isEntry)).toEqual({ kind: 'ok', values: [{ type: 'x', timestamp: 't' }] });
  });

  it('treats whitespace-only lines as blank', () => {
    expect(parseJsonLine('  \t\r', isEntry)).toEqual({ kind: 'blank' });
  });

  it('recovers both records of two objects glued on one line', () => {
    const parsed = parseJsonLine('{"type":"a","timestamp":"1"}{"type":"b","timestamp":"2","s":"}{"}', isEntry);
    expect(parsed).toEqual({
      kind: 'glued',
      values: [
        { type: 'a', timestamp: '1' },
        { type: 'b', timestamp: '2', s: '}{' },
      ],
    });
  });

  it('recovers the whole record written after a cut-off one on the same line', () => {
    const parsed = parseJsonLine('{"type":"a","timestamp":"1","text":"cut{"type":"b","timestamp":"2"}', isEntry);
    expect(parsed.kind).toBe('partial');
    expect(parsed.kind === 'partial' && parsed.values).toEqual([{ type: 'b', timestamp: '2' }]);
  });

  it('does not mistake an object nested in a cut-off record for a record', () => {
    const parsed = parseJsonLine('{"type":"a","timestamp":"1","content":[{"type":"text","text":"hi"},{"ty', isEntry);
    expect(parsed).toMatchObject({ kind: 'invalid', truncated: true });
  });

  it('calls a line that is not JSON invalid, not truncated', () => {
    expect(parseJsonLine('not json at all', isEntry)).toMatchObject({ kind: 'invalid', truncated: false });
    // Regression (a sharing review): V8's message quoted the line's first ten characters, which
    // --redact cannot know for a secret's (6 of a token's beside its redacted copy).
    const secret = parseJsonLine('ghp_Q9zX7LEAKwvB4mN2pR8sT1uY6hJ3kL5dF0gA", "n": 1}}', isEntry);
    expect(secret).toMatchObject({ kind: 'invalid', message: "Unexpected token 'g': not valid JSON" });
    // Regression (an outside review of hostile sizes): nor the ten around a spot inside the line
    // (`..."th-token",ghp_Q9zX7L"...`), which the pattern above missed.
    const inside = parseJsonLine('{"type":"message","args":["gh","auth","--with-token",ghp_Q9zX7LEAKwvB4mN2pR8sT1uY6hJ3kL5dF0gA]}', isEntry);
    expect(inside).toMatchObject({ kind: 'invalid', message: "Unexpected token 'g': not valid JSON" });
  });

  // Quadratic recovery would not finish within the test's time-out on this line.
  it('gives up on a hostile line of unclosed braces', () => {
    expect(parseJsonLine('{"a":'.repeat(200_000), isEntry).kind).toBe('invalid');
  });
});
