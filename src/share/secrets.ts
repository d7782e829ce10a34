// What --redact looks for: the secret shapes that show up in terminal sessions, as data.
// Order matters: specific shapes first, so a key is named by its issuer, and the generic
// patterns below never see a value that is already redacted.

export interface SecretPattern {
  kind: string;
  pattern: RegExp;
  /** The capture group that holds the secret; the rest of the match is kept. 0 = the whole match. */
  group: number;
}

const secret = (kind: string, pattern: RegExp, group = 0): SecretPattern => ({ kind, pattern, group });

/** A value of an assignment or a quoted field that is not already a redaction marker. */
const VALUE = String.raw`(?!\[REDACTED:)[^\s"'\x60,;]{4,}`;

export const SECRET_PATTERNS: readonly SecretPattern[] = [
  // Private keys, whole blocks; a block cut off by truncated output is redacted to its end.
  secret('private-key', /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g),
  secret('anthropic-key', /\bsk-ant-[A-Za-z0-9_-]{16,}/g),
  secret('openai-key', /\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}/g),
  secret('stripe-key', /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}|\bwhsec_[A-Za-z0-9]{20,}/g),
  secret('github-token', /\bgh[pousr]_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{22,}/g),
  secret('slack-token', /\bxox[abposre]-[A-Za-z0-9-]{10,}|\bxapp-\d-[A-Za-z0-9-]{10,}|https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,}/g),
  secret('gitlab-token', /\bglpat-[A-Za-z0-9_-]{20,}/g),
  secret('sendgrid-key', /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g),
  secret('google-oauth', /\bya29\.[A-Za-z0-9_-]{20,}|\bGOCSPX-[A-Za-z0-9_-]{20,}/g),
  secret('digitalocean-token', /\bdo[pro]_v1_[a-f0-9]{64}\b/g),
  secret('aws-access-key', /\b(?:AKIA|ASIA|ABIA|ACCA|AROA|AIDA)[A-Z0-9]{16}\b/g),
  secret('aws-secret-key', /\b(aws_?secret_?access_?key|AWS_SECRET_ACCESS_KEY)(\s*[=:]\s*["']?)([A-Za-z0-9/+=]{40})\b/gi, 3),
  secret('google-api-key', /\bAIza[0-9A-Za-z_-]{35}\b/g),
  secret('npm-token', /\bnpm_[A-Za-z0-9]{36}\b/g),
  secret('huggingface-token', /\bhf_[A-Za-z0-9]{30,}\b/g),
  secret('jwt', /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g),
  // scheme://user:password@host (the user may be empty): the password goes, the rest stays readable.
  secret('url-password', /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@"'<>]*:)([^\s@/"'<>]+)(@)/gi, 2),
  // .npmrc: //registry/:_authToken=…, _auth=…, _password=…
  secret('npm-token', /(:_authToken|:_auth|:_password|^_authToken|^_auth|^_password)(\s*=\s*)(\S+)/gm, 3),
  secret('bearer-token', /\b(Bearer\s+)((?!\[REDACTED:)[A-Za-z0-9._~+/=-]{8,})/g, 2),
  secret('basic-auth', /\b(Authorization\s*:\s*Basic\s+)([A-Za-z0-9+/=]{8,})/gi, 2),
  // NAME_KEY=…, NAME_TOKEN=…, NAME_SECRET=…, PASSWORD=… in any case (also export, quotes, colon forms).
  secret(
    'assignment',
    new RegExp(String.raw`\b([A-Za-z0-9_.-]*(?:_KEY|_TOKEN|_SECRET|_PASSWORD|_PASSWD|_PASS|_PWD|PASSWORD|PASSWD|SECRET|APIKEY|API_KEY))(\s*[=:]\s*["']?)(${VALUE})`, 'gi'),
    3,
  ),
  // "apiKey": "…", "password": "…", api_key: …, access_token=… in any case.
  secret(
    'api-key',
    new RegExp(String.raw`\b((?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|secret[_-]?key|client[_-]?secret|private[_-]?key|password|passwd|secret)["']?)(\s*[=:]\s*["']?)(${VALUE})`, 'gi'),
    3,
  ),
];

/**
 * Field names whose string value is a secret whatever it looks like ("apiKey", "client_secret",
 * "password", "x-api-key", AWS's "SecretAccessKey" and "SessionToken"): in JSON a key and its
 * value are separate strings, so the patterns above cannot see them together.
 */
export const SECRET_FIELD = /(?:api[_-]?key|apikey|secret|password|passwd|pwd|passphrase|token|credentials?|authorization|auth|access[_-]?key|private[_-]?key|secret[_-]?key)$/i;
