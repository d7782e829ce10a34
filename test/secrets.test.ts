import { describe, expect, it } from 'vitest';
import { createRedactor } from '../src/share/redact.js';

const redact = (text: string, home: string | null = '/home/ana') => createRedactor(home).text(text);
const field = (name: string, value: string) => createRedactor(null).field(name, value);

describe('secret patterns', () => {
  it.each([
    ['export db_password=hunter2-very-secret', 'export db_password=[REDACTED:assignment]'],
    ['aws_secret_key = "abcdEFGH1234"', 'aws_secret_key = "[REDACTED:assignment]"'],
    ['Slack app token xapp-1-A0123456789-1234567890123-abcdef', 'Slack app token [REDACTED:slack-token]'],
    ['gitlab glpat-abcdefghij0123456789', 'gitlab [REDACTED:gitlab-token]'],
    ['X-API-Key: 0123456789abcdef0123', 'X-API-Key: [REDACTED:api-key]'],
    ['cd /home/ana/work && ls /home/anatoly', 'cd ~/work && ls /home/anatoly'],
    ['input_tokens=5 max_tokens: 4096', 'input_tokens=5 max_tokens: 4096'],
  ])('%s', (text, redacted) => {
    expect(redact(text)).toBe(redacted);
  });

  it.each([
    ['SecretAccessKey', true],
    ['SessionToken', true],
    ['apiKey', true],
    ['client_secret', true],
    ['x-api-key', true],
    ['privateKey', true],
    ['key', false],
    ['sortKey', false],
    ['publicKey', false],
    ['path', false],
  ])('treats a JSON field named %s as secret: %s', (name, secret) => {
    expect(field(name, 'value-1234') === '[REDACTED:secret-field]').toBe(secret);
  });

  it('never replaces a home of / or a drive root', () => {
    expect(redact('/usr/bin and C:\\Windows', '/')).toBe('/usr/bin and C:\\Windows');
    expect(redact('C:\\Windows', 'C:\\')).toBe('C:\\Windows');
  });
});
