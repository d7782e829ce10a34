// Redaction (design.md §7): with --redact, none of the secrets planted in fixtures/secrets/ and
// not the home folder /home/planted-user may appear in any file of the report, in any spelling
// a page or JSON could give them, and the report must say how many of each kind it removed.
// --omit drops whole kinds of content without changing the numbers; --share is --redact plus
// --omit thinking.
//
// Every planted value is listed below (and only here, never in src/): fake, but of the right
// length and alphabet for its kind, each used for one purpose so that a leak names its place.

import { appendFile, cp, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type BuildOptions } from '../src/build.js';
import { parsePeriod } from '../src/ledger/scope.js';
import { main, type CliIo } from '../src/cli.js';
import { createSharer } from '../src/share/share.js';
import { shortened } from '../src/unicode-text.js';
import { firstTextArgument } from '../src/sources/tool-output.js';
import { readSessionFile } from '../src/sources/read.js';
import { archiveFiles, pathHash, readArchivedLedger } from '../src/archive.js';
import { ledgerOf } from '../src/ledger/ledger.js';
import { unpackEntries, type PackedEntries } from '../src/ledger/packed-entries.js';
import { byCount } from '../src/report/overview-pages.js';
import type { Entry, SessionFile } from '../src/types.js';
import { ALL_UTC, FIXTURES, tempDir } from './support/fixtures.js';
import { reply } from './support/session-builders.js';

const SECRETS = join(FIXTURES, 'secrets');
const HOME = '/home/planted-user';
const NOW = new Date('2026-12-01T12:00:00Z');

/** The planted secrets, by what they are (PEM keys as their body lines). */
const PLANTED = {
  anthropicPrompt: 'sk-ant-api03-FAKEb0ugh7ZZ3e_Ms6pgawfi_G0f7nwf7bFnIcGQCYAdgxU25s9qxiIYnifTnSa3R4n47G0Ai5BqeoOqqlyWriQzuF53uAA',
  anthropicThinking: 'sk-ant-api03-PLANTEDb0ughFHBzRE_B5HFlEIEYwUGTkoue0HMNoE_tGsHRvHNAXe8b3g2_STI7VPot8k8zQbpUGRLrCiujcG79SrdX3AA',
  anthropicError: 'sk-ant-api03-ERRfakeB0ugh2DN0l5U6RAQAFTDMWLlhHYcYA9eCVmWRqxIU_4ak20HcYwAtCZ9koI5WXUwoEK5_q1ZspthnmToOZqN8hAA',
  openaiProj: 'sk-proj-FAKEb0ughfHs-vHNfBFaYL5J6b_ky7V9cjF9dyUZDw4ahjhps6kKfl7AckhWt3q_fZx-Un29MwT3BlbkFJ8SIFSqtP272UBDXpmRtsfUU2fJbNp5nQt7s9w5c835LlvnVIRbK4NgXMyAnJNpbUHVNbRy2ZKl',
  openaiLegacy: 'sk-FAKEb0ughUW69HJHAPRlT3BlbkFJyUL1NZPSlcUDuGa81nxr',
  awsAccessKeyId: 'AKIAFAKE30JY5QRJALQQ',
  awsAccessKeyIdEnv: 'AKIAPLNTKIPSNY7I93M8',
  awsSecret: 'FAKEb0ughOC83lAQ3fy1mvElMqGQ1gOCqu2eKjCL',
  awsSecretEnv: 'PLANTEDb0ughib9lG/GIos7nvVIJGcmAR6cojyTR',
  githubPat: 'ghp_FAKEb0ughF2qM4ur7mbVgLr2yApvvv649P10',
  githubPatRemote: 'ghp_REMOTEfakeU2voOpK24gVKvbuAnmnthdkVSi',
  githubFineGrained: 'github_pat_11FAKEB0UGHS5PG4TQBKWV_PLANTEDfakeBWIkW6V8pU1iUbe1kOPLo6e3dzrWfAN8PlGsZCFecSK7FP3Z',
  slackBot: 'xoxb-302004283020-4210059798589-FAKEb0ughfMGDDgTO6J4y25D',
  slackSkill: 'xoxb-565114458242-2328153344766-SKILLfakeTCQTlcpkXCKq6xc',
  stripeLive: 'sk_live_51FAKEb0ughNHts26miZ5CXE1Wwr6Q36godX8CxavawoV3OdWuKjkHsEI5wfxUd0r3JuqB6Jttxji1wcN1TatbCSxvGJ5qmTWI7',
  googleApiKey: 'AIzaSyFAKEb0ughwpEa44CyJ3e7OB2vrMxLALot',
  npmToken: 'npm_FAKEb0ughDan92P5E8bKgrDOv444Fx7BZKgK',
  npmLegacyToken: '7c2f9e1a-fa6e-4b0a-9d00-ca7f35f4826a',
  genericApiKey: 'fakeb0ughc3164d8c03cab555dbcd266',
  genericApiKeyHeader: 'fakehdrf9312bd17d05ff41e1ee0a7e9be2befc0',
  genericApiKeyJson: 'fakejsonkI25OKBtsprqF1pbk0A2L4NC',
  jwt: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJwbGFudGVkLWZha2UtdXNlci0wMDAxIiwibmFtZSI6IkJvdWdoIEZha2UiLCJpYXQiOjE3OTAwMDAwMDB9.FAKEsigyAQ2SNRvyKWUsHjaUGSXXdMsRCan6DcxHAw5',
  jwtThinking: 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJwbGFudGVkLWZha2UtdXNlci0wMDAyIiwic2NvcGUiOiJhZG1pbiIsImV4cCI6MTc5MDAwMzYwMH0.FAKEsig21BiFIhGmLmb4Nmw-5hLUG2FwmBa1mXDiCsz-ZzfLaYERM6iB3tsNmn3xcQFbrmV_k0IHyLbImsI2dP',
  bearer: 'FAKEbearerG.LbsUwI-fQmE2Biyjjjg8U4hN3VsEX91J4iuZ',
  urlPassword: 'Pl4nted-F4ke-Passw0rd-DD9C7F',
  dbUrlPassword: 'Db-F4ke-BRczrdcNYJv1Yz',
  redisUrlPassword: 'Redis-F4ke-VuUkTEY1huh66G',
  envKey: 'fakeKEYRCBY5Nw3xxNuXUCa6ko7U',
  envToken: 'fakeTOKM7gJKN5NR1aE9tduXMZEB50',
  envSecret: 'fakeSECxGD2Wj02Qdc7pHxN5wdx1wrcB',
  envPassword: 'F4ke!Pl4nted#C0dtZa8b',
  dbPassword: 'F4keDb%608rarlAd3',
  systemToken: 'fakeSYSDDP6PfAKJs9kPDKQaWo4qBX',
  customSecret: 'fakeCUSTOML4NkLHWzNQ8Abjcka92J',
  subagentToken: 'fakeSUBAGENTLXskOcnJ93h77wZn4V',
  githubPatDamaged: 'ghp_DAMAGEDfakehj9MzLHkYHNAWI7EG8U6erHe2',
  githubOauth: 'gho_FAKEoauth42kzisP0s6vyVCqx29Bklqj3Ydc',
  dbJsonPassword: 'F4keJson-jiEdLLY62zyHer',
  openaiSvc: 'sk-svcacct-FAKEb0ugh4I6RDfYN48BtosmJkvHBcMafCdfVtffTWd4J3vULCzj0RNDhhzsJM0_qF5KdTd8qVT3BlbkFJtUKZdPwifOAJYyNm4uUznPraRik9N85CaUc64HZ0EsO3K6WY1DjM_hbEIVunLuI5A86mPX3v1G',
  pemRsaLines: [
    'MIIEFAKEb0ughPLANTEDkeyAAKCAQEA5O/sygUCTCm4tlZsPxv+tQEN3lwu1AM32',
    'tZ2tHtbku8ZOKtkxuA1rwid3oSJzQkxcKM+IMp6H8BwjMx0iEuuM+vnQUjbXW4zn',
    'i5Agx7L0yJhdOuR8H16qs2ZO8lf3Sn9LUHs1t9jy/+cdzcTmQgtMD7FMu69CSUTB',
    'DfRZ6dk20JqDVpbwZandZ3BF9obe3Lb3Uqd7ylGs6hsbv9M1frQJFS1EVkU7HpJp',
    'iE0JxnUZI1CusecNbPaJ7ODY83mEMn57rDWfI1DgpPOhpdqFdmZl+tyyj8opOwhs',
    'RPXqtdNOCUY5cbIVI0ZcJskQ+S8L7YEokT8/5rMlmpku5VYTZ0Ri484zF/GR6nRi',
    'JiZY5wtmOYBijFLnTfwjrPCEwAE1wlF7Mw3NEVCv==',
  ],
  pemPkcs8Lines: [
    'MIIEvFAKEPKCS8b0ughPLANTEDkey6ZxxnqFQJ5wtNxDP+D4a8K940YuAGodrx8D',
    'z264mwdcATwmroInr+DLtIsGX+6gBxmtT1FsyzvmL62FxCF68uV1LbYf/Jrq5anm',
    'OyE1lOYjjsEuJl3RBN5FIvLY2OK/vYZiolR340Tj5L9q4oYgluIVEbXZ4ImP3ymz',
    'Aq5mIkXDUhG7hok2Dt5K066K4dTfbHAiv39rXlkMp15g6UvA0+fjgmUTockhTZHn',
    'gBiaU4vOcfywFrGq0gE7FkjU3UPPu4FD27VGyISkhJ5hGXbRZma0TiaShEM5jbzL',
    '0gVvawVZVsPiJc7fufcW/evpnzcN=',
  ],
  pemOpensshLines: [
    'b3BlbnNzaC1rZXktdjEAFAKEb0ughPLANTED4lpyVPi7jTTm9KvDdRV+s2hP/131N8VAv4',
    'jv/pdMq6AHO8EW39GQ3oZQEXxsek0ytS0vgxUUWj14mc0uov9PNhWQp52NGOppAY',
    '9F0zdZzBN4KH37FQZGB9N7R6yZFydt1+6oyzRuSfQCcZl1S5ZIwip1l3TiiRsKJi',
    'kO6NUDqKNJlLWqfUPKKDYtYqpk7gIXD8Km/CTNZtpoU2+TGFJOVeOZhQhGePGD6T',
    'e8TnroaWPSx6iIgIZN3m',
  ],
} as const;

/** Where each planted value sits in the fixtures, for the failure messages. */
const PLACES: Record<keyof typeof PLANTED, string> = {
  anthropicPrompt: 'credentials: prompt text (Anthropic key)',
  anthropicThinking: 'credentials: thinking (Anthropic key)',
  anthropicError: 'credentials: errorMessage (Anthropic key)',
  openaiProj: 'credentials: bash command `export OPENAI_API_KEY=…` (OpenAI project key)',
  openaiLegacy: 'credentials: reply text (legacy OpenAI key)',
  awsAccessKeyId: 'credentials: reply text and `cat ~/.aws/credentials` output (AWS access key id)',
  awsAccessKeyIdEnv: 'credentials: `env` output AWS_ACCESS_KEY_ID= (AWS access key id)',
  awsSecret: 'credentials: `cat ~/.aws/credentials` output aws_secret_access_key = (AWS secret key)',
  awsSecretEnv: 'credentials: `env` output AWS_SECRET_ACCESS_KEY= (AWS secret key)',
  githubPat: 'credentials: reply text (GitHub classic token)',
  githubPatRemote: 'credentials: `git remote -v` output, https://x-access-token:…@github.com (GitHub token as URL password)',
  githubFineGrained: 'credentials: custom entry data (GitHub fine-grained token)',
  slackBot: 'credentials: errorMessage and a label (Slack bot token)',
  slackSkill: 'credentials: skill body SLACK_BOT_TOKEN= (Slack bot token)',
  stripeLive: 'credentials: sub-agent call arguments, task, prompt and tool output (Stripe live key)',
  googleApiKey: 'credentials: skill body (Google API key)',
  npmToken: 'credentials: .npmrc read output //registry.npmjs.org/:_authToken= (npm token)',
  npmLegacyToken: 'credentials: .npmrc read output //npm.corp.example.com/:_authToken= (legacy UUID npm token)',
  genericApiKey: 'credentials: bash command, URL query ?api_key= (generic API key)',
  genericApiKeyHeader: 'credentials: bash command, header x-api-key: (generic API key)',
  genericApiKeyJson: 'credentials: custom entry data {"apiKey": …} (generic API key as a JSON field)',
  jwt: 'credentials: curl tool output (JWT)',
  jwtThinking: 'credentials: thinking (JWT)',
  bearer: "credentials: bash command -H 'Authorization: Bearer …' (bearer token)",
  urlPassword: 'credentials: `git remote -v` output https://deploy-bot:…@ (password in URL)',
  dbUrlPassword: 'credentials: write tool content DATABASE_URL=postgres://app:…@ (password in URL)',
  redisUrlPassword: 'credentials: write tool content REDIS_URL=redis://:…@ (password in URL, empty user)',
  envKey: 'credentials: write tool content PAYMENTS_API_KEY= (*_KEY assignment)',
  envToken: 'credentials: `env` output DEPLOY_TOKEN= (*_TOKEN assignment)',
  envSecret: 'credentials: `env` output SESSION_SECRET= (*_SECRET assignment)',
  envPassword: 'credentials: `env` output PASSWORD= (PASSWORD assignment)',
  dbPassword: 'credentials: write tool content DB_PASSWORD= (*_PASSWORD assignment)',
  systemToken: 'credentials: system prompt section STAGING_API_TOKEN= (*_TOKEN assignment)',
  customSecret: 'credentials: custom entry data {"client_secret": …} (secret as a JSON field)',
  subagentToken: 'credentials: sub-agent bash command PAYMENTS_TOKEN= (*_TOKEN assignment)',
  githubPatDamaged: 'home-folder: a damaged line whose preview reaches the data-quality page (GitHub token)',
  githubOauth: 'home-folder: read and grep output oauth_token: …; credentials: compaction summary (GitHub OAuth token)',
  dbJsonPassword: 'credentials: tool arguments {"password": …} of db_query (password as a JSON field)',
  openaiSvc: 'credentials: reply text (OpenAI service account key)',
  pemRsaLines: 'credentials: read ~/.ssh/id_rsa output (PEM RSA private key)',
  pemPkcs8Lines: 'credentials: write tool content service-account.pem (PEM PKCS#8 private key)',
  pemOpensshLines: 'credentials: user shell command !cat ~/.ssh/id_ed25519 output (OpenSSH private key)',
};

/**
 * The hostile set (hostile.jsonl): secrets as a reader finally sees them, planted in spellings
 * the patterns used to miss: escaped for Markdown, HTML or JSON, split by strikethrough marks,
 * glued to a word, after an escaped newline, in JSON text printed by tools, in an image's MIME
 * type, cut short in a damaged line's preview.
 */
const HOSTILE = {
  // The start of a Claude Code record's text once went into its entry's key, kept in the archive (fixtures/secrets/claude).
  claudeSystemStart: 'AKIAFAKECLAUDESYST9Z',
  claudePromptStart: 'AKIAFAKECLAUDEPRMT7Q',
  mdEscaped: 'sk-ant-api03-HOSTILEmdEscFAKEzJr4i0B3JrTAwR4y9ojfljoQoaF1LlqsajAIx',
  entity: 'sk-ant-api03-HOSTILEentityFAKEu8jzPde0IgxLd6GnKLzdocJ2isAj',
  unicodeEscaped: 'sk-ant-api03-HOSTILEjsonUFAKEcfBAepfJBd0Kh8oOOL8dmxgJTeKd',
  strikethrough: 'sk-ant-api03-HOSTILEstrikeFAKEmxgJTeKdNnFRIBXuDL7Dxt',
  glued: 'ghp_HOSTILEgluedFAKE8rESQedUStPKR0CsTy4Q',
  afterNewline: 'AKIAHOSTILENEWLINE01',
  stsSecret: 'HOSTILEfakeSTSb0ughmxgJTeKdNnFRIBXuDL7Dx',
  stsSession: 'IQoJb3JpZ2luX2VjEHOSTILEfakeSESSIONu8jzPde0IgxLd6GnKLzdocJ2isAjIhKtJ0Rlg',
  dbPasswordJson: 'HOSTILE-f4ke-json-db-pw-KLzdoc',
  refreshToken: '1//0gHOSTILEfakeREFRESH8rESQedUStPKR0',
  githubTokenField: 'HOSTILEfakeGHFIELDzJr4i0B3JrTAwR4y9',
  stripeSecretField: 'HOSTILE-f4ke-stripe-field-cfBAepfJBd0K',
  passphrase: 'f4ke lighthouse velvet quarry hostile',
  urlSlashPassword: 'HOSTILE/f4ke/slash-pw-BRczrd',
  redisEmptyUser: 'HOSTILE-f4ke-redis-VuUkTE',
  azureAccountKey: 'HOSTILEfakeAZUREmxgJTeKdNnFRIBXuDL7DxtpYlSXpfKtH8rESQedUStPKR0CsTy4Qwb8DwkN+/Qw==',
  azureSharedAccessKey: 'HOSTILEfakeSBUSzJr4i0B3JrTAwR4y9ojfljoQoaF1Llq=',
  sasSignature: 'HOSTILEfakeSAS%2BmxgJTeKdNnFRIBX%3D',
  bareToken: 'HOSTILEfakeBARETOKu8jzPde0IgxLd6Gn',
  barePass: 'HOSTILE-f4ke-bare-pass-cfBAep',
  secretKeyBase: 'HOSTILEfakeKEYBASE0KLzdocJ2isAjIhKtJ0RlgLKOmxgJTeKdNnFR',
  curlPassword: 'HOSTILE-f4ke-curl-pw-KLzdoc',
  tokenHeader: 'HOSTILEfakeTOKENHDRmxgJTeKdNnF',
  mimeType: 'ghp_HOSTILEfakeMIMEzJr4i0B3JrTAwR4y9ojfl',
  damagedPreview: 'ghp_DAMAGEDhostileFAKEi0B3JrTAwR4y9oj',
  pemTail: 'HOSTILEfakePEMtail575yx8xm5MslfY5ubiheyEd7P4zDL/ak6J0kGODKdinZnL',
  pemTail2: 'XicaBAg8WY1jzIRlNQb0prFmbh7+wy5yq1XoY1BaIMcAxYmfsB4HbQLXjjlAFbVV',
  pemTail3: '6q9rXxtNDFyuzX9k1gnneGEYG1+LwiqD9jJBAc==',
} as const;

/** Other users' home folders (sessions from other machines) and the user's own in odd spellings. */
const HOSTILE_HOMES = ['hostile-zelda', 'hostile-bob', 'hostile-alice', 'hostile-carol', '//home//planted-user', '/home/./planted-user', '~planted-user', '\\/home\\/planted-user'];

/** Ordinary code in a tool's output that names keys: it must reach the page verbatim. */
const HOSTILE_CODE = ['const apiKey = await getApiKeyForModel(model);', 'result.apiKey = args[++i];', 'process.env.ANTHROPIC_API_KEY = undefined;', 'apiKey: string | undefined;'];

/** Every planted value with its name: one per PEM body line. */
const VALUES = Object.entries(PLANTED).flatMap(([name, value]): { name: string; value: string }[] =>
  typeof value === 'string' ? [{ name, value }] : value.map((line, i) => ({ name: `${name}[${i}]`, value: line })),
);

/** Sentences that only the thinking, the tool output or the system prompt hold. */
const THINKING = ['Thinking sentence: the lighthouse keeper counts gulls at dawn.', 'Sub-agent thinking sentence: the ferry leaves at noon.'];
const TOOL_OUTPUT = [
  'Tool output sentence: the kettle whistled twice.',
  'Sub-agent tool output sentence: the tide table is wrong.',
  // What a Claude Code slash command printed, as a user record and as a system record (fixtures/secrets/claude).
  'Command output sentence: the lock clicked shut.',
  'Local command sentence: the gate swung open.',
  // A commit's message that only git printed (fixtures/secrets/commit-output.jsonl): its commits list too.
  'Commit sentence: the harbour lights burn again',
  // Tool output given elsewhere (fixtures/secrets/output-elsewhere.jsonl): a context edit's text put
  // in place of a tool result for the model, a nested call's error, and a sub-agent run's.
  'Rewritten output sentence: the clock ran backwards.',
  'Nested call sentence: the bell rang at noon.',
  // A sub-agent run's error, read from its tool's details as its conversation is.
  'Sub-agent error sentence: the lamp went out.',
];
const SYSTEM = [
  'System sentence: always answer like a harbour pilot reading the tide.',
  // Instructions and context the agent put before the model (fixtures/secrets/codex, and the Claude Code reminder).
  'Developer sentence: moor every boat at the north quay.',
  'Agents sentence: the harbour lamp is lit at six.',
  'Environment sentence: the quay is paved with granite.',
  'Reminder sentence: the pilot boards at the outer buoy.',
  // The same, as a line of its own (isMeta).
  'Meta reminder sentence: the harbour master keeps the log.',
];

/** A kind named after each issuer or shape the issue lists must show up in the counts. */
const REQUIRED_KINDS: [string, RegExp][] = [
  ['Anthropic keys', /anthropic/i],
  ['OpenAI keys', /openai/i],
  ['AWS keys', /aws/i],
  ['GitHub tokens', /github/i],
  ['Slack tokens', /slack/i],
  ['Stripe keys', /stripe/i],
  ['Google API keys', /google/i],
  ['JWTs', /jwt/i],
  ['PEM private keys', /private|pem/i],
  ['bearer tokens', /bearer/i],
  ['passwords in URLs', /url|password/i],
  ['the home folder', /home/i],
];

interface Built {
  outDir: string;
  /** Every file of the report (relative path with "/") → its text. */
  files: Map<string, string>;
}

interface Summary {
  sharing?: { redactions?: Record<string, number>; omitted?: string[] };
  totals: { sessions: number; tokens: unknown; cost: unknown };
  sessions: { tokens: unknown }[];
}

let workDir: string;
const builds: Record<'plain' | 'redacted' | 'omitted' | 'shareApi' | 'shareCli', Built> = {} as never;

beforeAll(async () => {
  workDir = await tempDir('bough-redaction-');
  const base = { inputs: [SECRETS], scope: ALL_UTC, environment: { env: {}, home: HOME }, now: NOW } satisfies Partial<BuildOptions>;
  builds.plain = await buildInto('plain', base);
  builds.redacted = await buildInto('redacted', { ...base, redact: true });
  builds.omitted = await buildInto('omitted', { ...base, omit: ['thinking', 'tool-output', 'system'] });
  builds.shareApi = await buildInto('share-api', { ...base, redact: true, omit: ['thinking'] });
  const outDir = join(workDir, 'share-cli');
  let stderr = '';
  const io: CliIo = { stdout: () => undefined, stderr: (t) => (stderr += t), env: {}, home: HOME, isTty: false, now: () => NOW };
  const code = await main(['build', SECRETS, '--share', '--out', outDir, '--tz', 'UTC'], io);
  if (code !== 0) throw new Error(`bough build --share failed (${code}): ${stderr}`);
  builds.shareCli = { outDir, files: await readAll(outDir) };
  shareCliStderr = stderr;
});

/** What `bough build --share` said: shown where its report differs (once seen, on a loaded machine, not since). */
let shareCliStderr = '';

afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

// Regression (a hostile look): the files a Codex patch over several files touched, each with its
// lines, were kept as read under --share: the home folder in Files touched, the search and the archive.
it('redacts the path of each file a patch over several files touched', async () => {
  const folder = await tempDir('bough-patch-');
  const id = '0195cccc-0000-7000-8000-0000000000d1';
  const patch = `*** Begin Patch\n*** Update File: ${HOME}/private-clinic/patients.txt\n@@\n-a\n+b\n*** Add File: ${HOME}/notes/new.txt\n+c\n*** End Patch`;
  const lines = [
    { timestamp: '2026-03-06T09:00:00.000Z', type: 'session_meta', payload: { id, timestamp: '2026-03-06T09:00:00.000Z', cwd: '/work/harbour', originator: 'codex_cli_rs', cli_version: '0.125.0' } },
    { timestamp: '2026-03-06T09:00:01.000Z', type: 'turn_context', payload: { cwd: '/work/harbour', model: 'gpt-5' } },
    { timestamp: '2026-03-06T09:00:02.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'edit both' }] } },
    { timestamp: '2026-03-06T09:00:03.000Z', type: 'response_item', payload: { type: 'custom_tool_call', call_id: 'p1', name: 'apply_patch', input: patch } },
    { timestamp: '2026-03-06T09:00:04.000Z', type: 'response_item', payload: { type: 'custom_tool_call_output', call_id: 'p1', output: 'Success.' } },
  ];
  await writeFile(join(folder, `rollout-2026-03-06T09-00-00-${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  const outDir = join(await tempDir('bough-patch-report-'), 'report');
  let stderr = '';
  const io: CliIo = { stdout: () => undefined, stderr: (t) => (stderr += t), env: {}, home: HOME, isTty: false, now: () => NOW };
  expect(await main(['build', folder, '--share', '--out', outDir, '--tz', 'UTC'], io), stderr).toBe(0);
  const files = await readAll(outDir);
  expect([...files].filter(([, text]) => text.includes(HOME)).map(([file]) => file)).toEqual([]);
  expect([...files.values()].some((text) => text.includes('~/private-clinic/patients.txt'))).toBe(true);
});

describe('--redact', () => {
  it('has something to remove: without it, every planted secret and the home folder are in the report', () => {
    const all = [...builds.plain.files.values()];
    const missing = VALUES.filter(({ value }) => !all.some((text) => spellings(value).some((s) => text.includes(s)))).map(({ name }) => name);
    expect(missing).toEqual([]);
    expect(all.some((text) => text.includes(HOME))).toBe(true);
  });

  it('leaves no planted secret, whole or in part, in any file of the report, in any spelling', () => {
    const leaks: string[] = [];
    for (const [file, text] of builds.redacted.files) {
      for (const { name, value } of VALUES) {
        const key = name.replace(/\[\d+\]$/, '') as keyof typeof PLANTED;
        const found = needles(value).find((needle) => text.includes(needle.text) || file.includes(needle.text));
        if (found) leaks.push(`${file}: ${name} as ${found.form} "${found.text}" (${PLACES[key]})`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('leaves the home folder nowhere: not in pages, summary.json, usage.csv or file names', () => {
    const leaks: string[] = [];
    for (const [file, text] of builds.redacted.files) {
      for (const spelling of [HOME, encodeURIComponent(HOME), HOME.replace(/\//g, '\\/'), HOME.replace(/\//g, '\\\\')]) {
        const count = text.split(spelling).length - 1;
        if (count > 0) leaks.push(`${file}: ${count} × ${spelling} (${context(text, spelling)})`);
      }
      if (file.includes('planted-user')) leaks.push(`file name ${file}`);
    }
    expect(leaks).toEqual([]);
  });

  it('keeps the text around what it removed, with ~ for the home folder', () => {
    const pages = [...builds.redacted.files].filter(([file]) => file.startsWith('sessions/')).map(([, text]) => text);
    expect(pages.some((text) => text.includes('stopped working'))).toBe(true);
    expect(pages.some((text) => text.includes('[REDACTED:'))).toBe(true);
    expect(pages.some((text) => text.includes('~/projects/payments'))).toBe(true);
  });

  it('counts what it removed per kind in summary.json, for every kind it marked', () => {
    const summary = summaryOf(builds.redacted);
    const redactions = summary.sharing?.redactions;
    expect(redactions, 'summary.json sharing.redactions').toBeTypeOf('object');
    const counts = Object.entries(redactions ?? {});
    expect(counts.filter(([, n]) => !Number.isInteger(n) || n <= 0)).toEqual([]);
    const kinds = counts.map(([kind]) => kind);
    expect(REQUIRED_KINDS.filter(([, pattern]) => !kinds.some((kind) => pattern.test(kind))).map(([what]) => what)).toEqual([]);
    // Every [REDACTED:kind] marker written anywhere is counted under its kind.
    const marked = new Set<string>();
    for (const text of builds.redacted.files.values()) for (const m of text.matchAll(/\[REDACTED:([^\]\s]+)\]/g)) marked.add(m[1] as string);
    expect(marked.size).toBeGreaterThan(0);
    expect([...marked].filter((kind) => !kinds.includes(kind))).toEqual([]);
  });

  // Regression (a sharing review): the inputs' folders in the home, listed on the index, were
  // redacted after the pages' count was made: summary.json said 75 home paths, the pages 70.
  it('says the same counts on its pages as summary.json when its inputs are in the home', async () => {
    const home = await tempDir();
    const input = join(home, 'sessions');
    await cp(SECRETS, input, { recursive: true });
    const built = await buildInto('redacted-home', { inputs: [input], scope: ALL_UTC, environment: { env: {}, home }, now: NOW, redact: true });
    const counts = Object.entries(summaryOf(built).sharing?.redactions ?? {});
    expect(counts.length).toBeGreaterThan(0);
    const line = /Redacted: ([^.<]*)/.exec(built.files.get('index.html') ?? '')?.[1] ?? '';
    const said = Object.fromEntries([...line.matchAll(/(\d[\d,]*) ([a-z][a-z0-9-]*)/g)].map((m) => [m[2], Number((m[1] as string).replace(/,/g, ''))]));
    expect(said).toEqual(Object.fromEntries(counts));
  });

  it('says on the index page and the data-quality page how many of each kind it removed', () => {
    const counts = Object.entries(summaryOf(builds.redacted).sharing?.redactions ?? {});
    expect(counts.length).toBeGreaterThan(0);
    for (const page of ['index.html', 'data-quality.html']) {
      const text = visibleText(builds.redacted.files.get(page) ?? '');
      expect(text, page).toMatch(/redact/i);
      const unsaid = counts.filter(([kind, n]) => !saysCount(text, kind, n)).map(([kind, n]) => `${kind}: ${n}`);
      expect(unsaid, `${page} does not say these counts`).toEqual([]);
    }
  });

  it('shows input files under the home folder with ~ too', async () => {
    const home = join(workDir, 'home-of-inputs');
    await cp(SECRETS, join(home, '.pi', 'agent', 'sessions', '--home-planted-user--'), { recursive: true });
    const built = await buildInto('inputs-in-home', { inputs: [join(home, '.pi')], scope: ALL_UTC, environment: { env: {}, home }, now: NOW, redact: true });
    const leaks = [...built.files].filter(([, text]) => text.includes(home)).map(([file, text]) => `${file}: ${context(text, home)}`);
    expect(leaks).toEqual([]);
  });
  // Regression (a hostile look at e66fde3): a --share folder built before bough knew the real path
  // of a home that is a link named its sessions by paths that kept it; a rebuild wrote them under
  // new names and kept the earlier pages, the real path in them, as sessions it does not show.
  it('replaces the pages an earlier build named by the home as $HOME spelled it alone', async () => {
    const real = join(workDir, 'data2', 'u_former');
    const link = join(workDir, 'home-link-later');
    const folder = join(real, '.claude', 'projects', '-data2-u-former-proj');
    await mkdir(folder, { recursive: true });
    const id = '99999999-9999-4999-8999-999999999991';
    const line = (record: object) => JSON.stringify({ sessionId: id, cwd: join(real, 'proj'), version: '2.1.38', timestamp: '2026-02-10T21:11:56.846Z', ...record });
    await writeFile(join(folder, `${id}.jsonl`), [line({ type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'look' } })].join('\n'));
    const out = join(workDir, 'report-of-a-home-linked-later');
    const options = { inputs: [join(real, '.claude', 'projects')], out, scope: ALL_UTC, environment: { env: {}, home: link }, now: NOW, redact: true, omit: ['thinking' as const], cache: false };
    // Before the link exists, bough knows the home only as $HOME spells it, as an earlier version did.
    await build(options);
    await symlink(real, link);
    // A build of another period first (a second hostile look: the session, read but not shown, was
    // kept with its earlier pages).
    const narrower = await build({ ...options, scope: { ...ALL_UTC, period: parsePeriod({ month: '2025-01' }, 'UTC') } });
    expect(narrower.sessionsCarried).toEqual({ sessions: 0, warmupStarts: 0 });
    expect([...(await readAll(out))].filter(([, text]) => text.includes('u_former')).map(([file]) => file)).toEqual([]);
    const again = await build(options);
    expect(again.sessionsCarried).toEqual({ sessions: 0, warmupStarts: 0 });
    expect(again.summary.sessions).toHaveLength(1);
    const files = await readAll(out);
    expect([...files].filter(([, text]) => text.includes('u_former')).map(([file]) => file)).toEqual([]);
  });

  // Regression: with $HOME a link to where the home really is, the folders agents record (resolved,
  // as the system gives them) kept the user's name in every page, summary.json and usage.csv.
  it('removes the home folder by its real path when $HOME is a link to it', async () => {
    const real = join(workDir, 'data', 'u_planted');
    const link = join(workDir, 'home-link');
    const folder = join(real, '.pi', 'agent', 'sessions', `--${real.replace(/^\//, '').replace(/[/_]/g, '-')}-proj--`);
    await mkdir(folder, { recursive: true });
    await symlink(real, link);
    const at = '2026-10-07T10:00:00.000Z';
    await writeFile(join(folder, '2026-10-07T10-00-00-000Z_s.jsonl'), [
      { type: 'session', version: 3, id: 's', timestamp: at, cwd: join(real, 'proj') },
      { type: 'message', id: 'u', parentId: null, timestamp: at, message: { role: 'user', content: [{ type: 'text', text: `look in ${join(real, 'proj', 'src')}` }], timestamp: 0 } },
    ].map((r) => JSON.stringify(r)).join('\n'));
    const built = await buildInto('report-of-a-linked-home', { inputs: [join(link, '.pi')], scope: ALL_UTC, environment: { env: {}, home: link }, now: NOW, redact: true });
    const leaks = [...built.files].filter(([, text]) => text.includes('u_planted')).map(([file, text]) => `${file}: ${context(text, 'u_planted')}`);
    expect(leaks).toEqual([]);
  });
});

describe('--redact against the hostile set', () => {
  it('has something to remove: without it, a reader sees every hostile secret (at least its start)', () => {
    const shown = [...builds.plain.files].map(([file, text]) => seen(file, text));
    const missing = Object.entries(HOSTILE).filter(([, value]) => !needles(value).some((n) => shown.some((text) => text.includes(n.text))));
    // A damaged line's preview is cut where a word ends, with or without --redact: no start of a key is in it.
    expect(missing.map(([name]) => name)).toEqual(['damagedPreview']);
    expect(shown.some((text) => text.includes('x99999'))).toBe(true);
  });

  it('leaves no hostile secret, whole or in part, in any file of the report or in what a reader sees', () => {
    const leaks: string[] = [];
    for (const [file, text] of builds.redacted.files) {
      for (const [name, value] of Object.entries(HOSTILE)) {
        const found = needles(value).find((n) => text.includes(n.text) || seen(file, text).includes(n.text));
        if (found) leaks.push(`${file}: ${name} as ${found.form} "${found.text}"`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it("leaves no other user's home folder and no odd spelling of the user's own", () => {
    const leaks = [...builds.redacted.files].flatMap(([file, text]) =>
      HOSTILE_HOMES.filter((home) => text.includes(home) || seen(file, text).includes(home)).map((home) => `${file}: ${home}`),
    );
    expect(leaks).toEqual([]);
  });

  it('keeps code that names keys verbatim on the session page', () => {
    const pages = [...builds.redacted.files].filter(([file]) => file.startsWith('sessions/')).map(([file, text]) => seen(file, text));
    expect(HOSTILE_CODE.filter((line) => !pages.some((text) => text.includes(line)))).toEqual([]);
  });
});

describe('--redact on data nested deeper than any real record', () => {
  it('does not overflow the stack on a value nested 10,000 levels deep, and still redacts what it shows', () => {
    const sharer = createSharer({ redact: true, omit: new Set(), home: HOME });
    const shared = sharer.file(sessionWith(nested(10_000, { password: PLANTED.dbJsonPassword, cwd: `${HOME}/deep` })));
    const text = JSON.stringify(shared.entries);
    expect(text).not.toContain(PLANTED.dbJsonPassword);
    expect(text).not.toContain(HOME);
    expect(text).toContain('[nested too deep to show]');
  });

  it('redacts a value a few levels down in full', () => {
    const sharer = createSharer({ redact: true, omit: new Set(), home: HOME });
    const shared = sharer.file(sessionWith(nested(5, { password: PLANTED.dbJsonPassword, cwd: `${HOME}/deep` })));
    expect(JSON.stringify(shared.entries)).toContain('{"password":"[REDACTED:secret-field]","cwd":"~/deep"}');
  });
});

// Regression (an outside review of safety): fields the walker copied as they were.
describe('--redact on every field of a session and its usage', () => {
  it("redacts a usage record's model asked for and answered, the agent's versions, and tools a system message names when it is omitted", () => {
    const path = `${HOME}/models/qwen-${PLANTED.githubPat}.gguf`;
    const file: SessionFile = {
      ...sessionWith({}),
      agentVersions: [`0.0.0-dev+${HOME}/src/codex ${PLANTED.githubPat}`],
      entries: [
        reply('e1', null, { model: path, requestedModel: path, responseModel: `${path}-answered` }),
        { key: 'k2', id: 'e2', parentId: 'e1', timestamp: null, line: 3, recovered: false, usage: [], kind: 'system', content: [{ type: 'text', text: 'sys' }], sections: {}, toolsAdded: [`mcp/${PLANTED.githubPat}`], toolsRemoved: [`${HOME}/bin/old-tool`] },
      ],
    };
    for (const omit of [new Set<never>(), new Set(['system'] as const)]) {
      const shared = JSON.stringify(createSharer({ redact: true, omit, home: HOME }).file(file));
      expect(shared).not.toContain(PLANTED.githubPat);
      expect(shared).not.toContain(HOME);
      expect(shared).toContain('"requestedModel":"~/models/qwen-[REDACTED:github-token].gguf"');
      expect(shared).toContain('"toolsRemoved":["~/bin/old-tool"]');
    }
  });
});

// Regressions (a sharing review, 2026-12-06): what a file says beside its entries, or what an
// agent or reader made of a path, went out as it was.
describe('--redact on what is made of a session beside its entries', () => {
  const sharer = () => createSharer({ redact: true, omit: new Set(), home: HOME, keySecret: 'cd'.repeat(32) });

  it("redacts the models Claude Code's running totals name (cost-state), as a reply's", () => {
    const model = `claude-haiku-4-5 ${PLANTED.githubPat} ${HOME}/.claude`;
    const counts = { input: 5000, output: 1000, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 0 };
    const file: SessionFile = { ...sessionWith(null), source: 'claude', runningTotals: [{ time: 1, until: null, models: [{ model, counts, webSearches: 0 }] }] };
    const shared = sharer().file(file);
    expect(JSON.stringify(shared)).not.toContain(PLANTED.githubPat);
    expect(JSON.stringify(shared)).not.toContain(HOME);
    expect(shared.runningTotals?.[0]?.models[0]).toMatchObject({ model: 'claude-haiku-4-5 [REDACTED:github-token] ~/.claude', counts });
  });

  it('redacts a token in a folder Claude Code named after the working directory, where its `_` is written `-`', () => {
    const cwd = `${HOME}/repos/deploy-${PLANTED.githubPat}`;
    const folder = cwd.replace(/[^A-Za-z0-9]/g, '-');
    expect(folder).not.toContain(PLANTED.githubPat);
    const path = `${HOME}/.claude/projects/${folder}/0b1c2d3e-0000-4000-8000-000000000001.jsonl`;
    const file: SessionFile = { ...sessionWith(null), source: 'claude', path, cwd, projectFolder: folder, diagnostics: [{ reason: 'invalid-json', file: path, line: 3, detail: 'x', skippedLine: true }] };
    const shared = sharer().file(file);
    const tokenBody = PLANTED.githubPat.slice(4);
    expect(JSON.stringify(shared)).not.toContain(tokenBody);
    expect(shared.path).toBe('~/.claude/projects/-~-repos-deploy-[REDACTED:github-token]/0b1c2d3e-0000-4000-8000-000000000001.jsonl');
    expect(shared.projectFolder).toBe('-~-repos-deploy-[REDACTED:github-token]');
    // Folders without one keep their names: a dash in them is a dash (regression, a hostile look:
    // read as `_`, `work-live-customerdashboard` was a Stripe key, `-npm-workspaces` a partial one).
    for (const [cwd, shown] of [
      [`${HOME}/work/live/customerdashboard`, '-~-work-live-customerdashboard'],
      [`${HOME}/src/npm/workspaces`, '-~-src-npm-workspaces'],
      [`${HOME}/my-shop`, '-~-my-shop'],
    ] as const) {
      const folder = cwd.replace(/[^A-Za-z0-9]/g, '-');
      const plain = sharer().file({ ...sessionWith(null), source: 'claude', cwd, path: `${HOME}/.claude/projects/${folder}/a.jsonl`, projectFolder: folder });
      expect(plain.projectFolder).toBe(shown);
      expect(plain.path).toBe(`~/.claude/projects/${shown}/a.jsonl`);
    }
  });

  it("hashes a Pi parent session id taken from a parent file's name that redaction took as part of a secret", () => {
    const parentFile = `${HOME}/.pi/agent/sessions/--x--/${PLANTED.githubPat}.jsonl`;
    const parentSessionId = PLANTED.githubPat.slice(PLANTED.githubPat.indexOf('_') + 1);
    const shared = sharer().file({ ...sessionWith(null), parentFile, parentSessionId });
    expect(JSON.stringify(shared)).not.toContain(parentSessionId);
    expect(shared.parentFile).toBe('~/.pi/agent/sessions/--x--/[REDACTED:github-token].jsonl');
    expect(shared.parentSessionId).toMatch(/^redacted-[0-9a-f]{24}$/);
    // An id the name holds as it was keeps it: it still names the parent's session.
    const plain = sharer().file({ ...sessionWith(null), parentFile: `${HOME}/s/2026-01-01T00-00-00-000Z_0b1c2d3e.jsonl`, parentSessionId: '0b1c2d3e' });
    expect(plain.parentSessionId).toBe('0b1c2d3e');
  });
});

// Regression (a sharing review): only a string right under a secret's name was redacted; a
// number there, a list of keys, or an object holding the value was shown as it was.
describe('--redact on what a secret-named JSON field holds', () => {
  it('redacts numbers, lists and objects under the name, and nothing beside it', () => {
    const sharer = createSharer({ redact: true, omit: new Set(), home: HOME });
    const value = { password: 98765432, apiKeys: ['QQargList1abc9', 'QQargList2xyz7'], db: { password: { value: 'QQargNested9' }, port: 5432, host: 'db.internal' }, scripts: { 'validate:secrets': 'node scripts/check-secrets.js' } };
    const text = JSON.stringify(sharer.file(sessionWith(value)).entries);
    // A text named as many secrets is a command, not one of them (found on the corpus's package.json).
    expect(text).toContain('"validate:secrets":"node scripts/check-secrets.js"');
    for (const secret of ['98765432', 'QQargList1abc9', 'QQargList2xyz7', 'QQargNested9']) expect(text).not.toContain(secret);
    expect(text).toContain('"port":5432');
    expect(text).toContain('"host":"db.internal"');
  });

  // Regression (the sharing review's leftovers): a plural name written as an environment
  // variable holding a text, and a PIN or one-time code by its name, were shown.
  it('redacts DB_PASSWORDS texts and PIN digits, and what a secret’s name holds all the way down', () => {
    const sharer = createSharer({ redact: true, omit: new Set(), home: HOME });
    const value = { DB_PASSWORDS: 'QQplural1x,QQplural2y', pin: 4829, otp_code: '551234', apiKey: { type: 'string', value: 'QQschemaVal9' }, pinned: 2024, totp: 'JBSWY3DPEHPK3PXP' };
    const text = JSON.stringify(sharer.file(sessionWith(value)).entries);
    for (const secret of ['QQplural1x', '4829', '551234', 'QQschemaVal9', 'JBSWY3DPEHPK3PXP']) expect(text).not.toContain(secret);
    expect(text).toContain('"pinned":2024');
  });

  // Regression (the last note's leftovers): a plural name in lower case holding a text (a JSON
  // key) was taken for an npm script's, whatever the text: the secrets in it were shown.
  it('redacts a lower-case plural name’s list of secrets, not the command of a script named so', () => {
    const sharer = createSharer({ redact: true, omit: new Set(), home: HOME });
    const value = { db_passwords: 'QQlower1x9,QQlower2y8', api_tokens: 'QQlowerTok7', scripts: { 'lint:secrets': 'secretlint', 'test:tokens': 'vitest run tokens' } };
    const text = JSON.stringify(sharer.file(sessionWith(value)).entries);
    for (const secret of ['QQlower1x9', 'QQlower2y8', 'QQlowerTok7']) expect(text).not.toContain(secret);
    expect(text).toContain('"lint:secrets":"secretlint","test:tokens":"vitest run tokens"');
  });

  // Regression (two hostile looks at the test above's fix): a PIN's name or a "describing" key
  // (type, user, host) inside what a secret's name holds replaced that name, and a bare `tokens`
  // map lost its: a TOTP seed under "credentials", a DB_USER under "secrets" were shown.
  it('keeps what a secret’s name holds secret below PIN names and describing keys', () => {
    const sharer = createSharer({ redact: true, omit: new Set(), home: HOME });
    const value = { credentials: { totp: 'QQtotpSeed7JBSWY3DP', user: { login: 'bob', secretValue: 'QQnestedUser9' }, host: 'QQhostLooksRandom4' }, secrets: { pin: 'QQpinWord8x', DB_USER: 'QQdbUser5' }, token: { type: 'QQtypeLooksRandom7Zq8vT2mW9' }, tokens: { github: 'QQbareTokens3' } };
    const text = JSON.stringify(sharer.file(sessionWith(value)).entries);
    for (const secret of ['QQtotpSeed7JBSWY3DP', 'QQnestedUser9', 'QQpinWord8x', 'QQtypeLooksRandom7Zq8vT2mW9', 'QQhostLooksRandom4', 'QQdbUser5', 'QQbareTokens3']) expect(text).not.toContain(secret);
  });

  it('changes nothing without --redact', () => {
    const sharer = createSharer({ redact: false, omit: new Set(['thinking']), home: HOME });
    expect(JSON.stringify(sharer.file(sessionWith({ password: 98765432 })).entries)).toContain('"password":98765432');
  });
});

describe('--omit and --share', () => {
  it('the sentences checked below are in a report without --omit', () => {
    const all = [...builds.plain.files.values()];
    const missing = [...THINKING, ...TOOL_OUTPUT, ...SYSTEM].filter((sentence) => !all.some((text) => text.includes(sentence)));
    expect(missing).toEqual([]);
  });

  it('--omit thinking,tool-output,system drops the thinking, the tool output and the system prompt everywhere', () => {
    const left: string[] = [];
    for (const [file, text] of builds.omitted.files) {
      for (const sentence of [...THINKING, ...TOOL_OUTPUT, ...SYSTEM]) if (text.includes(sentence)) left.push(`${file}: ${sentence}`);
    }
    expect(left).toEqual([]);
  });

  it('--omit leaves every token and cost total as it was', () => {
    const plain = summaryOf(builds.plain);
    const omitted = summaryOf(builds.omitted);
    expect(omitted.totals.sessions).toBe(plain.totals.sessions);
    expect(omitted.totals.tokens).toEqual(plain.totals.tokens);
    expect(omitted.totals.cost).toEqual(plain.totals.cost);
    expect(omitted.sessions.map((s) => s.tokens)).toEqual(plain.sessions.map((s) => s.tokens));
  });

  it('--share through the command line writes the same report as --redact --omit thinking', () => {
    const cli = builds.shareCli;
    const api = builds.shareApi;
    expect([...cli.files.keys()]).toEqual([...api.files.keys()]);
    // build.json says when its files were written, which no two builds share.
    const written = (text: string) => text.replace(/"latest":[0-9.]+/g, '"latest":0');
    const differ = [...cli.files].filter(([file, text]) => written(text.split(cli.outDir).join('OUT')) !== written((api.files.get(file) ?? '').split(api.outDir).join('OUT'))).map(([file]) => file);
    const firstLines = differ.slice(0, 2).map((file) => {
      const plain = (text: string | undefined) => written((text ?? '').split(cli.outDir).join('OUT').split(api.outDir).join('OUT'));
      const [a, b] = [plain(cli.files.get(file)), plain(api.files.get(file))];
      let at = 0;
      while (at < a.length && a[at] === b[at]) at++;
      return `${file} at ${at}: ${JSON.stringify(a.slice(Math.max(0, at - 80), at + 80))} / ${JSON.stringify(b.slice(Math.max(0, at - 80), at + 80))}`;
    });
    expect(differ, `${firstLines.join('\n')}\nstderr: ${shareCliStderr}`).toEqual([]);
  });

  it('--share removes the secrets and the thinking but keeps the tool output and the system prompt', () => {
    const all = [...builds.shareCli.files.values()];
    const leaked = VALUES.filter(({ value }) => all.some((text) => text.includes(value))).map(({ name }) => name);
    expect(leaked).toEqual([]);
    expect(all.some((text) => text.includes(HOME))).toBe(false);
    expect(THINKING.filter((sentence) => all.some((text) => text.includes(sentence)))).toEqual([]);
    expect(TOOL_OUTPUT.filter((sentence) => !all.some((text) => text.includes(sentence)))).toEqual([]);
    expect(SYSTEM.filter((sentence) => !all.some((text) => text.includes(sentence)))).toEqual([]);
    expect(Object.keys(summaryOf(builds.shareCli).sharing?.redactions ?? {}).length).toBeGreaterThan(0);
  });
});

describe('--omit system', () => {
  // Regression: Claude Code appends <system-reminder>s to a tool's output; --omit system left
  // them there, on 10 pages of the real corpus, while the README says it drops system reminders.
  it('drops the reminders the agent appended to a tool’s output, and keeps the output', () => {
    const output = 'line 1 of the file\n<system-reminder>Whenever you read a file, consider malware.</system-reminder>\nline 2<system-reminder>cut off';
    const entry = { kind: 'toolResult', toolCallId: 'c1', toolName: 'Read', content: [{ type: 'text', text: output }], isError: false, subagents: [], diff: null, change: null, commits: [], nestedCalls: [], key: 'k1', id: 'e1', parentId: null, timestamp: null, line: 2, usage: [], recovered: false } satisfies Entry;
    const file = { ...sessionWith(null), entries: [entry] };
    const shared = createSharer({ redact: false, omit: new Set(['system']), home: HOME }).file(file).entries[0];
    const text = shared?.kind === 'toolResult' && shared.content[0]?.type === 'text' ? shared.content[0].text : '';
    expect(text).toBe('line 1 of the file\n[instructions and context for the model omitted from this report]\nline 2[instructions and context for the model omitted from this report]');
    // A whole reminder inside a line is the tool's text (a file that holds the tag): kept.
    const inLine = { ...entry, content: [{ type: 'text' as const, text: "x = '<system-reminder>not a reminder</system-reminder>'" }] };
    const kept = createSharer({ redact: false, omit: new Set(['system']), home: HOME }).file({ ...file, entries: [inLine] }).entries[0];
    expect(kept?.kind === 'toolResult' && kept.content[0]?.type === 'text' ? kept.content[0].text : '').toBe("x = '<system-reminder>not a reminder</system-reminder>'");
    // Without --omit system, the output is as written.
    const plain = createSharer({ redact: false, omit: new Set(['thinking']), home: HOME }).file(file).entries[0];
    expect(plain?.kind === 'toolResult' && plain.content[0]?.type === 'text' ? plain.content[0].text : '').toBe(output);
  });
});

// Regression (a sharing review): a document block (a PDF, base64) was shown whole in a shared
// report, its author, paths and secrets a decode away.
describe('--redact on encoded data in a record', () => {
  it('leaves a document’s bytes out, says how many, and keeps the rest of the block', () => {
    const pdf = Buffer.from(`%PDF-1.4 /Author (Ana Lima) /Creator (${HOME}/secret.docx) ${'x'.repeat(2000)}`).toString('base64');
    const sharer = createSharer({ redact: true, omit: new Set(), home: HOME });
    const text = JSON.stringify(sharer.file(sessionWith({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf }, id: 'QUJDRA==' })).entries);
    expect(text).not.toContain(pdf.slice(0, 40));
    expect(text).toContain('"data":"[2 kB of encoded data left out: a redacted report cannot look into it]"');
    expect(text).toContain('"media_type":"application/pdf"');
    // Short base64 (an id) is text like any other.
    expect(text).toContain('"id":"QUJDRA=="');
    expect(sharer.redactions.get('encoded-data')).toBe(1);
    // Without --redact, nothing is left out.
    expect(JSON.stringify(createSharer({ redact: false, omit: new Set(['thinking']), home: HOME }).file(sessionWith({ data: pdf })).entries)).toContain(pdf);
  });

  // Regression (a hostile look): a data URL, base64url, and a tool's output of base64 alone were shown.
  it('finds it as a data URL, as base64url, and in a text; never hex or digits', () => {
    const pdf = Buffer.from(`%PDF-1.4 /Author (Ana Lima) ${'y'.repeat(2000)}`).toString('base64');
    const url = pdf.replace(/\+/g, '-').replace(/\//g, '_');
    const hex = 'ab12'.repeat(400);
    const sharer = createSharer({ redact: true, omit: new Set(), home: HOME });
    const text = JSON.stringify(sharer.file(sessionWith({ file_data: `data:application/pdf;base64,${pdf}`, url, hex, digits: '7'.repeat(1500) })).entries);
    expect(text).not.toContain(pdf.slice(0, 40));
    expect(text).not.toContain(url.slice(0, 40));
    expect(text).toContain(hex);
    expect(text).toContain('7'.repeat(1500));
    // Nor a list of branch names or ids, however long (a hostile look: a tool's output of them was left out).
    const branches = Array.from({ length: 40 }, (_, i) => `feature/JIRA-${1000 + i}-add-login-flow-step${i}`).join('\n');
    const ids = Array.from({ length: 40 }, (_, i) => `3f2a9c1e-7b4d-4e8a-9c2f-${String(i).padStart(12, '0')}`).join('\n');
    const lists = JSON.stringify(sharer.file(sessionWith({ branches, ids })).entries);
    expect(lists).toContain('feature/JIRA-1039-add-login-flow-step39');
    expect(lists).toContain('3f2a9c1e-7b4d-4e8a-9c2f-000000000039');
    // Nor record ids of one length, mixed case and digits (a second look: hidden at a width of 16).
    const records = Array.from({ length: 70 }, (_, i) => `001Dn00000Ab${String(i).padStart(3, '0')}XyZ`).join('\n');
    expect(JSON.stringify(sharer.file(sessionWith({ records })).entries)).toContain('001Dn00000Ab069XyZ');
    // Base64 as `base64` wraps it, in lines of 76, is data.
    const wrapped = pdf.match(/.{1,76}/g)?.join('\n') ?? '';
    expect(JSON.stringify(sharer.file(sessionWith({ wrapped })).entries)).toContain('of encoded data left out');
    const result = { ...sessionWith(null).entries[0], kind: 'toolResult', toolCallId: 'c1', toolName: 'bash', content: [{ type: 'text', text: pdf }], isError: false, subagents: [], diff: null, change: null, commits: [], nestedCalls: [] } as Entry;
    const shown = sharer.file({ ...sessionWith(null), entries: [result] }).entries[0];
    expect(shown?.kind === 'toolResult' && shown.content[0]?.type === 'text' ? shown.content[0].text : '').toContain('of encoded data left out');
  });
});

describe('entry keys in the archive of a build that redacts', () => {
  const at = (s: number) => `2026-11-03T10:00:0${s}.000Z`;
  const piLines = (id: string) => [
    { type: 'session', version: 3, id, timestamp: at(0), cwd: `${HOME}/shop` },
    { type: 'message', id: `${id}-u1`, parentId: null, timestamp: at(1), message: { role: 'user', content: 'the staging db: DB_PASSWORD=sunshine42, notes in /Users/marta/notes.txt' } },
    { type: 'message', id: `${id}-a1`, parentId: `${id}-u1`, timestamp: at(2), message: { role: 'assistant', provider: 'anthropic', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'ok' }], stopReason: 'stop', usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 110 } } },
  ];
  const writeSession = async (path: string, id: string) => {
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, `${piLines(id).map((line) => JSON.stringify(line)).join('\n')}\n`);
  };
  const redacting = (config: string, inputs: string[], more: Partial<BuildOptions> = {}): Omit<BuildOptions, 'out'> => ({
    inputs,
    scope: ALL_UTC,
    redact: true,
    environment: { env: { BOUGH_CACHE_DIR: `${config}-cache`, BOUGH_CONFIG_DIR: config }, home: HOME },
    now: NOW,
    ...more,
  });
  const archivedLedgers = (built: Built) => [...built.files].filter(([file]) => file.endsWith('.ledger.json.gz')).map(([, text]) => text).join('\n');

  // Regression (a sharing review): entry keys hold hashes of what an entry holds (a Pi prompt's
  // text), and the archive kept them as read: hashing guesses at the redacted password and home
  // folder against them found both.
  it('are hashed with a secret kept outside the report', async () => {
    const dir = await tempDir();
    const file = join(dir, 'sessions', 's1.jsonl');
    await writeSession(file, 'k-s1');
    const read = await readSessionFile(file);
    if (read.kind !== 'session') throw new Error('not read');
    const asRead = read.file.entries.map((entry) => entry.key);
    expect(asRead.some((key) => /[0-9a-f]{16}/.test(key))).toBe(true);
    const built = await buildInto('keyed-archive', redacting(join(dir, 'config'), [join(dir, 'sessions')]));
    const archive = archivedLedgers(built);
    expect(archive).toContain('"key":"k');
    for (const key of asRead) expect(archive).not.toContain(key);
    // The secret is the configuration folder's, readable by its owner only; the report says which it was, not what.
    const secret = (await readFile(join(dir, 'config', 'entry-key-secret'), 'utf8')).trim();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect((await stat(join(dir, 'config', 'entry-key-secret'))).mode & 0o077).toBe(0);
    for (const text of built.files.values()) expect(text).not.toContain(secret);
  });

  // Regression (a hostile look at the above): the secret was written into the report folder when
  // the cache folder was inside it, handing the reader what it hides.
  it('is never written into the report folder or a folder read', async () => {
    const dir = await tempDir();
    await writeSession(join(dir, 'sessions', 's1.jsonl'), 'k-s6');
    const out = join(workDir, 'secret-inside');
    const result = await build({ ...redacting(join(out, 'config'), [join(dir, 'sessions')]), out });
    expect(result.warnings.join(' ')).toContain('where bough keeps nothing of its own');
    expect((await readdir(out, { recursive: true })).filter((file) => String(file).includes('entry-key-secret'))).toEqual([]);
    const inInput = await build({ ...redacting(join(dir, 'sessions', 'config'), [join(dir, 'sessions')]), out: join(workDir, 'secret-in-input') });
    expect(inInput.warnings.join(' ')).toContain('where bough keeps nothing of its own');
    expect((await readdir(join(dir, 'sessions'))).sort()).toEqual(['s1.jsonl']);
  });

  it('of an archive written as read (by bough before 2026-12) are hashed to what this build makes of the same file', async () => {
    const dir = await tempDir();
    const file = join(dir, 's.jsonl');
    await writeSession(file, 'k-s5');
    const read = await readSessionFile(file);
    if (read.kind !== 'session') throw new Error('not read');
    const asRead = ledgerOf(read.file);
    const sharer = createSharer({ redact: true, omit: new Set(), home: HOME, keySecret: 'ab'.repeat(32) });
    const shared = ledgerOf(sharer.file(read.file));
    const entry = { ledger: asRead, pages: [], search: [], fingerprint: null, source: 'x', place: 'y', lastSeen: 0, sharing: 'redact:true;omit:' };
    const { ledger } = await archiveFiles(entry);
    const out = join(dir, 'report');
    await mkdir(join(out, 'archive'), { recursive: true });
    await writeFile(join(out, ledger.path), ledger.content);
    const back = await readArchivedLedger(out, { ...entry, name: pathHash(asRead.key) }, sharer.keys);
    const keys = (entries: PackedEntries) => unpackEntries(entries).map((e) => [e.key, e.usage.map((u) => u.key)]);
    expect(keys(back?.ledger.entries as PackedEntries)).toEqual(keys(shared.entries));
    expect(keys(shared.entries)).not.toEqual(keys(asRead.entries));
  });

  // Regression (a sharing review): the report's count of what it redacted was of the files this
  // build read; a session kept from the archive (its file gone, or cut short) was left out of it.
  it('count what the report shows from the archive among what it redacted', async () => {
    const dir = await tempDir();
    const sessions = join(dir, 'sessions');
    for (const [name, id] of [['s1', 'k-c1'], ['s2', 'k-c2'], ['s3', 'k-c3']]) await writeSession(join(sessions, `${name}.jsonl`), id as string);
    const out = join(workDir, 'counted-archive');
    const redactions = async () => (await build({ ...redacting(join(dir, 'config'), [sessions]), out })).summary.sharing.redactions;
    const first = await redactions();
    // Each session: a password and two home paths (its working directory and another user's).
    expect(first).toEqual({ 'home-path': 6, assignment: 3 });
    await rm(join(sessions, 's1.jsonl'));
    const header = (await readFile(join(sessions, 's2.jsonl'), 'utf8')).split('\n')[0];
    await writeFile(join(sessions, 's2.jsonl'), `${header}\n`);
    // Once with the file gone and the other cut short, and again keeping that report.
    expect([await redactions(), await redactions()]).toEqual([first, first]);
    expect((await readdir(join(out, 'sessions'))).filter((name) => name.endsWith('.html')).length).toBe(3);
    // A report of November says what it removed of November's sessions, not of October's it read
    // and does not show (a hostile look: its count changed as that file came and went).
    const october = join(sessions, 'october.jsonl');
    await writeSession(october, 'k-c4');
    await writeFile(october, (await readFile(october, 'utf8')).replaceAll('2026-11-03', '2026-10-03'));
    const november = async () => (await build({ ...redacting(join(dir, 'config'), [sessions], { scope: { ...ALL_UTC, period: parsePeriod({ month: '2026-11' }, 'UTC') } }), out: join(workDir, 'counted-november') })).summary.sharing.redactions;
    const withOctober = await november();
    await rm(october);
    expect(await november()).toEqual(withOctober);
    expect(withOctober).toEqual({ 'home-path': 3, assignment: 1 });
  });

  it('tie a session whose file is gone to its copy read by a later build', async () => {
    const dir = await tempDir();
    const sessions = join(dir, 'sessions');
    await writeSession(join(sessions, 's1.jsonl'), 'k-s2');
    await buildInto('held-archive', redacting(join(dir, 'config'), [sessions]));
    await cp(join(sessions, 's1.jsonl'), join(sessions, 's1-moved.jsonl'));
    await rm(join(sessions, 's1.jsonl'));
    const second = await buildInto('held-archive', redacting(join(dir, 'config'), [sessions], { cache: false }));
    expect(summaryOf(second).totals).toMatchObject({ sessions: 1, usageRecords: 1 });
  });

  // Regressions (two hostile looks): with another secret, a moved file was counted again beside
  // its archived self with nothing said, a file cut short lost what the archive held of it as
  // "rewritten"; matching by session id then dropped other files of the same id (a Claude
  // session's sub-agents), counts took a file cut and gone on for cut short, and the keys
  // rehashed were taken for this secret's by the next build.
  it('of an archive made with another secret are kept under it, a file cut short told by its ids and times, and said', async () => {
    const dir = await tempDir();
    const sessions = join(dir, 'sessions');
    for (const [name, id] of [['s1', 'k-s7'], ['s2', 'k-s8'], ['s3', 'k-s9']]) await writeSession(join(sessions, `${name}.jsonl`), id as string);
    await buildInto('foreign-archive', redacting(join(dir, 'config-1'), [sessions]));
    await rm(join(sessions, 's1.jsonl'));
    const head = async (name: string) => (await readFile(join(sessions, name), 'utf8')).split('\n').slice(0, 2).join('\n');
    await writeFile(join(sessions, 's2.jsonl'), `${await head('s2.jsonl')}\n`);
    // Cut to its header and then gone on: one entry, written after all the archive held.
    const later = { type: 'message', id: 'k-s9-a9', parentId: null, timestamp: '2026-11-04T10:00:00.000Z', message: { role: 'assistant', provider: 'anthropic', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'later' }], stopReason: 'stop', usage: { input: 200, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 210 } } };
    const header = (await readFile(join(sessions, 's3.jsonl'), 'utf8')).split('\n')[0];
    await writeFile(join(sessions, 's3.jsonl'), `${header}\n${JSON.stringify(later)}\n`);
    const out = join(workDir, 'foreign-archive');
    for (const run of [1, 2]) {
      // Twice, another session read the second time: that build reads the archive the first
      // wrote, still of both secrets.
      if (run === 2) await writeSession(join(sessions, 's4.jsonl'), 'k-s10');
      const built = await build({ ...redacting(join(dir, 'config-2'), [sessions]), out });
      expect([run, built.summary.totals.sessions, built.summary.totals.usageRecords, built.summary.totals.tokens.input]).toEqual([run, run + 2, run + 2, run * 100 + 300]);
      const said = built.warnings.join(' ');
      // The gone one and the one cut short are kept under the other secret (a hostile look: the
      // one cut short was not said, though a copy of it would count again too).
      expect(said).toContain('2 session files kept from');
      // On the data-quality page too, which a rebuild keeping every page keeps.
      expect(built.summary.diagnostics.byReason['archive-other-secret']).toBe(2);
      expect(said).toContain('1 session file holds less than when');
      expect(said.includes('1 session file no longer holds what')).toBe(run === 1);
    }
    // Back to the first secret, nothing changed: the folder's archive is matched anew, not kept
    // as the last build left it under the other (a hostile look: every page was kept, its totals those of the other secret).
    const again = await build({ ...redacting(join(dir, 'config-1'), [sessions]), out });
    expect(again.warnings.join(' ')).toContain('1 session file holds less than when');
    expect(again.summary.totals).toMatchObject({ sessions: 4, usageRecords: 4 });
    // A file cut short and then grown past what was archived, under another secret: told by its
    // entries' ids, rewritten, and said (a hostile look: taken for a file going on, its past lost unsaid).
    const regrown = Array.from({ length: 3 }, (_, i) => JSON.stringify({ type: 'message', id: `k-s10-n${i}`, parentId: null, timestamp: '2026-11-05T10:00:00.000Z', message: { role: 'user', content: `new ${i}` } }));
    await writeFile(join(sessions, 's4.jsonl'), `${(await readFile(join(sessions, 's4.jsonl'), 'utf8')).split('\n')[0]}\n${regrown.join('\n')}\n`);
    const grown = await build({ ...redacting(join(dir, 'config-2'), [sessions]), out });
    expect(grown.warnings.join(' ')).toContain('1 session file no longer holds what');
    // Written anew at the same ids (a Codex file's ids are its lines), shorter: told by its times
    // (a hostile look: taken for cut short, its new work dropped).
    const anew = JSON.stringify({ type: 'message', id: 'k-s10-n0', parentId: null, timestamp: '2026-11-06T10:00:00.000Z', message: { role: 'user', content: 'other work' } });
    await writeFile(join(sessions, 's4.jsonl'), `${(await readFile(join(sessions, 's4.jsonl'), 'utf8')).split('\n')[0]}\n${anew}\n`);
    const rewritten = await build({ ...redacting(join(dir, 'config-1'), [sessions]), out });
    expect(rewritten.warnings.join(' ')).toContain('1 session file no longer holds what');
    // A report of a month they are not in says nothing of them (a last look: listed all the same).
    const october = await build({ ...redacting(join(dir, 'config-2'), [sessions], { scope: { ...ALL_UTC, period: parsePeriod({ month: '2026-10' }, 'UTC') } }), out });
    expect(october.summary.diagnostics.byReason['archive-other-secret']).toBeUndefined();
    expect(october.warnings.join(' ')).not.toContain('another entry-key secret');
  });

});

// Regression (a review of sharing): sessions recording no working directory are grouped by their
// agent's project folder, and every folder of another machine's home went whole under --redact
// (where its user's name ends is not written): `-Users-alice-proj` and `-home-bob-proj` were one
// project, `-~`. A code made with the machine's secret tells them apart, and names no one.
describe('--redact on the project folders of other machines’ homes', () => {
  it('tells them apart by a code, the same for the same folder, holding none of their words', () => {
    const sharer = createSharer({ redact: true, omit: new Set(), home: HOME, keySecret: 'ab'.repeat(32) });
    const shared = (folder: string) => sharer.file({ ...sessionWith(null), cwd: null, projectFolder: folder }).projectFolder ?? '';
    const names = ['-Users-alice-proj', '-Users-alice-smith-secretproj', '-home-bob-proj'].map(shared);
    expect(new Set(names).size).toBe(3);
    for (const name of names) expect(name).toMatch(/^-~-[0-9a-f]{8}$/);
    expect(shared('-Users-alice-proj')).toBe(names[0]);
    // The user's own home's projects keep their names, as before.
    expect(shared(`${HOME.replace(/\//g, '-')}-shop`)).toBe('-~-shop');
    // A WSL user's Windows home too (a hostile look: its name stayed, in the folder and the page's name).
    const wsl = ['-mnt-c-Users-bob-proj', '-mnt-c-Users-eve-proj'].map(shared);
    for (const name of wsl) expect(name).toMatch(/^-mnt-c-~-[0-9a-f]{8}$/);
    expect(new Set(wsl).size).toBe(2);
  });
});

// Regression (a review of sessions from other machines): working directories of other users'
// homes redact alike (`/Users/dave/shop`, `/home/erin/shop`: `~/shop`) and are one project in a
// report that redacts (told apart by a code made with the machine's secret, they split when the
// secret changed: undone); `--project dave` took all the users' sessions of it.
describe('--redact on the working directories of other machines’ homes', () => {
  it('takes for --project the sessions whose own folder held the text', async () => {
    const dir = await tempDir();
    const pi = (name: string, cwd: string, input: number) =>
      [
        { type: 'session', version: 3, id: `id-${name.length}-${input}`, timestamp: '2026-10-12T10:00:00.000Z', cwd },
        { type: 'message', id: 'u1', parentId: null, timestamp: '2026-10-12T10:00:01.000Z', message: { role: 'user', content: 'works' } },
        { type: 'message', id: 'a1', parentId: 'u1', timestamp: '2026-10-12T10:00:02.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: input }, stopReason: 'stop' } },
      ].map((r) => JSON.stringify(r)).join('\n');
    const homes = [['dave', '/Users/dave/shop', 1000], ['dave2', '/Users/Dave/shop', 500], ['erin', '/home/erin/shop', 2000], ['frank', '/home/frank/shop', 4000]] as const;
    for (const [name, cwd, input] of homes) await writeFile(join(dir, `s${input}.jsonl`), `${pi(name, cwd, input)}\n`);
    // A Claude Code session of erin's that records no folder, in her project folder (a hostile
    // look: by its merged project, it came along with dave's).
    const claude = join(dir, 'projects', '-home-erin-shop');
    await mkdir(claude, { recursive: true });
    const claudeSession = async (n: number, cwd: string | null, input: number) => {
      const id = `0000e00${n}-0000-4000-8000-000000000000`;
      const line = (type: 'user' | 'assistant', uuid: string, parentUuid: string | null, message: object) =>
        JSON.stringify({ type, sessionId: id, uuid, parentUuid, timestamp: '2026-10-12T11:00:00.000Z', ...(cwd === null ? {} : { cwd }), ...(type === 'assistant' ? { requestId: `req_e${n}` } : {}), message });
      const reply = { id: `msg_e${n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: input, output_tokens: 0 } };
      await writeFile(join(claude, `${id}.jsonl`), `${line('user', `u-${n}`, null, { role: 'user', content: 'works' })}\n${line('assistant', `a-${n}`, `u-${n}`, reply)}\n`);
    };
    await claudeSession(1, '/home/erin/shop', 16000);
    await claudeSession(2, null, 8000);
    const buildWith = async (redact: boolean, project: string | null) => {
      const out = join(await tempDir(), 'report');
      const environment = { env: { BOUGH_CONFIG_DIR: join(dir, 'config') }, home: '/home/planted-user' };
      return (await build({ inputs: [dir], out, redact, scope: { ...ALL_UTC, project }, environment, now: NOW })).summary;
    };
    const projects = (summary: { projects: { tokens: { input: number } }[] }) => summary.projects.map((p) => p.tokens.input).sort((a, b) => a - b);
    expect(projects(await buildWith(false, null))).toEqual([500, 1000, 4000, 26000]);
    expect(projects(await buildWith(true, null))).toEqual([31500]);
    // In any case, as without --redact: /Users/dave and /Users/Dave.
    // A folder's end with its slash too, whether a session wrote one (a hostile look: found by one
    // spelling in a plain report, by the other sessions' own folders not at all under --redact).
    expect((await buildWith(false, 'shop/')).totals.tokens.input).toBe(31500);
    for (const [project, input] of [['dave', 1500], ['frank', 4000], ['erin', 26000], ['shop', 31500], ['shop/', 31500]] as const) {
      const chosen = await buildWith(true, project);
      expect({ project, input: chosen.totals.tokens.input, projects: projects(chosen) }).toEqual({ project, input, projects: [input] });
      expect(JSON.stringify(chosen)).not.toMatch(project === 'shop' ? /dave|erin|frank/i : new RegExp(['dave', 'erin', 'frank'].filter((n) => n !== project).join('|'), 'i'));
    }
  });
});

// Regression (a hostile look): a Claude Code session recording no folder was taken, under
// --redact, whenever any session of its agent's folder matched (one of another project), or by
// its folder's name, where a report that does not redact took it only with its project's folders.
describe('--redact and --project on a session that records no folder', () => {
  it('takes the sessions a report without --redact takes', async () => {
    const dir = await tempDir();
    const folder = join(dir, 'projects', '-srv-shop');
    await mkdir(folder, { recursive: true });
    const sessions = [['1', '/srv/shop', 1000], ['2', '/srv/shop', 2000], ['3', '/srv/other', 4000], ['4', null, 8000]] as const;
    for (const [n, cwd, input] of sessions) {
      const id = `0000f00${n}-0000-4000-8000-000000000000`;
      const line = (type: 'user' | 'assistant', uuid: string, parentUuid: string | null, message: object) =>
        JSON.stringify({ type, sessionId: id, uuid, parentUuid, timestamp: '2026-10-12T11:00:00.000Z', ...(cwd === null ? {} : { cwd }), ...(type === 'assistant' ? { requestId: `req_f${n}` } : {}), message });
      const reply = { id: `msg_f${n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: input, output_tokens: 0 } };
      await writeFile(join(folder, `${id}.jsonl`), `${line('user', `u-${n}`, null, { role: 'user', content: 'works' })}\n${line('assistant', `a-${n}`, `u-${n}`, reply)}\n`);
    }
    const inputOf = async (redact: boolean, project: string) => {
      const environment = { env: { BOUGH_CONFIG_DIR: join(dir, 'config') }, home: '/home/planted-user' };
      return (await build({ inputs: [dir], out: join(await tempDir(), 'report'), redact, scope: { ...ALL_UTC, project }, environment, now: NOW })).summary.totals.tokens.input;
    };
    for (const [project, input] of [['other', 4000], ['srv-shop', 0], ['-srv-', 0], ['shop', 11000], ['/srv/', 15000]] as const) {
      expect({ project, plain: await inputOf(false, project), redacted: await inputOf(true, project) }).toEqual({ project, plain: input, redacted: input });
    }
    // Its folder's sessions that name theirs kept from an earlier build, their files gone (the
    // last hostile look: it was left out, none of them read to say whether they matched).
    const outs = { plain: join(await tempDir(), 'report'), redacted: join(await tempDir(), 'report') };
    const environment = { env: { BOUGH_CONFIG_DIR: join(dir, 'config') }, home: '/home/planted-user' };
    const buildInto = async (redact: boolean, project: string | null) =>
      (await build({ inputs: [dir], out: redact ? outs.redacted : outs.plain, redact, scope: { ...ALL_UTC, project }, environment, now: NOW })).summary.totals.tokens.input;
    for (const redact of [false, true]) await buildInto(redact, null);
    for (const n of ['1', '2', '3']) await rm(join(folder, `0000f00${n}-0000-4000-8000-000000000000.jsonl`));
    for (const [project, input] of [['shop', 11000], ['other', 4000]] as const) {
      expect({ project, plain: await buildInto(false, project), redacted: await buildInto(true, project) }).toEqual({ project, plain: input, redacted: input });
    }
  });
});

/** A value wrapped in `depth` objects: {"a": {"a": … value … }}. */
function nested(depth: number, value: unknown): unknown {
  let out = value;
  for (let i = 0; i < depth; i++) out = { a: out };
  return out;
}

/** A one-entry session whose entry holds `raw` as an unknown record. */
function sessionWith(raw: unknown): SessionFile {
  const entry = { kind: 'unknown', rawType: 'deep', raw, key: 'k1', id: 'e1', parentId: null, timestamp: null, line: 2, usage: [], recovered: false } satisfies Entry;
  return { source: 'pi', path: `${HOME}/s.jsonl`, size: 0, mtime: 0, sessionId: 's', cwd: HOME, projectFolder: null, startedAt: null, parentFile: null, namedByAgent: true, parentSessionId: null, subagentOf: null, subagentLabel: null, subagentId: null, startedSubagents: [], entryTitles: [], formatVersion: 3, entries: [entry], diagnostics: [], lineCount: 2 };
}

async function buildInto(name: string, options: Omit<BuildOptions, 'out'>): Promise<Built> {
  const outDir = join(workDir, name);
  await mkdir(workDir, { recursive: true });
  await build({ ...options, out: outDir });
  return { outDir, files: await readAll(outDir) };
}

/** Every file of a report folder, HTML, JSON, CSV, assets and the archive's compressed ledgers alike, as text. */
async function readAll(dir: string): Promise<Map<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
  const texts = new Map<string, string>();
  for (const file of files) {
    const bytes = await readFile(join(dir, ...file.split('/')));
    texts.set(file, (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'));
  }
  return texts;
}

function summaryOf(built: Built): Summary {
  return JSON.parse(built.files.get('summary.json') as string) as Summary;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** How a value can be spelled in a page, a JSON file or a URL. */
function spellings(value: string): string[] {
  return [
    ...new Set([
      value,
      value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string),
      value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`),
      JSON.stringify(value).slice(1, -1),
      JSON.stringify(value).slice(1, -1).replace(/\//g, '\\/'),
      encodeURIComponent(value),
      encodeURI(value),
    ]),
  ];
}

/**
 * The whole value in every spelling, and two 16-character pieces of its random part (the start and
 * the middle), so that a secret cut short (a preview, a label shortened for the tree) is caught too.
 */
function needles(value: string): { form: string; text: string }[] {
  const found: { form: string; text: string }[] = spellings(value).map((text, i) => ({ form: i === 0 ? 'itself' : 'an escaped spelling', text }));
  if (value.length >= 24) {
    const start = Math.max(0, value.search(/fake|f4ke|planted|plnt|damaged|remote/i));
    const middle = Math.floor(value.length / 2) - 8;
    found.push({ form: 'its start', text: value.slice(start, start + 16) }, { form: 'its middle', text: value.slice(middle, middle + 16) });
  }
  return found;
}

function context(text: string, needle: string): string {
  const at = text.indexOf(needle);
  return JSON.stringify(text.slice(Math.max(0, at - 60), at + needle.length + 20));
}

/** A page says "N kind" or "kind: N" (N as written, maybe with thousands separators). */
function saysCount(text: string, kind: string, count: number): boolean {
  const n = count.toLocaleString('en-US').replace(/,/g, '[,\\s]?');
  const k = kind.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\d])${n}\\D{0,40}${k}|${k}\\D{0,40}(^|[^\\d])${n}([^\\d]|$)`, 'i').test(text);
}

/** What a reader sees of a file: of a page its text without tags (so `a<del>b</del>c` reads abc), of anything else the file. */
function seen(file: string, text: string): string {
  // Inline tags (and highlighted code's spans) sit inside words: dropped without a space.
  return file.endsWith('.html') ? visibleText(text.replace(/<\/?(?:del|s|em|strong|code|span)(?:\s[^>]*)?>/g, '')) : text;
}

/** What a reader sees of a page: tags dropped, entities decoded. */
function visibleText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('the redaction counts', () => {
  it('read the same however the files were read in parallel (regression: ties came out in the order first met)', () => {
    const ties = new Map([['openai-key', 5], ['private-key', 5], ['home-path', 52], ['azure-key', 4], ['aws-access-key', 4]]);
    const shuffled = new Map([...ties].reverse());
    expect(byCount(ties)).toEqual(byCount(shuffled));
    expect(byCount(ties).map(([kind]) => kind)).toEqual(['home-path', 'openai-key', 'private-key', 'aws-access-key', 'azure-key']);
  });
});

// Regression: entry keys were kept as they were, and two carried text of the file into the
// archive's ledgers: a Codex thread's name (from session_index.jsonl) and a Pi record type no
// agent wrote. Pages, search and summary.json were redacted; archive/*.ledger.json.gz was not.
describe('--redact and entry keys', () => {
  it('leaves no secret in the archive that a key carried, and still builds the same sessions', async () => {
    const token = 'ghp_KEYleakAbCdEfGhIjKlMnOpQrStUvWxYz0123';
    const input = await tempDir('bough-keys-');
    await cp(join(FIXTURES, 'codex', 'home'), join(input, 'codex'), { recursive: true });
    await appendFile(join(input, 'codex', 'session_index.jsonl'), `${JSON.stringify({ id: '0195aaaa-0000-7000-8000-000000000001', thread_name: `deploy with ${token}`, updated_at: '2026-03-02T11:00:00Z' })}\n`);
    const pi = (await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl'), 'utf8')).trimEnd().split('\n');
    const last = JSON.parse(pi.at(-1) as string) as { id: string; timestamp: string };
    pi.push(JSON.stringify({ type: `note_${token}`, id: 'k0000099', parentId: last.id, timestamp: last.timestamp }));
    await mkdir(join(input, 'pi'));
    await writeFile(join(input, 'pi', 'keys.jsonl'), `${pi.join('\n')}\n`);
    const base = { inputs: [input], scope: ALL_UTC, environment: { env: {}, home: HOME }, now: NOW } satisfies Partial<BuildOptions>;
    const plain = await buildInto('keys-plain', base);
    expect([...plain.files.values()].some((text) => text.includes(token))).toBe(true);
    const redacted = await buildInto('keys-redacted', { ...base, redact: true });
    expect([...redacted.files].filter(([, text]) => text.includes(token) || text.includes(token.slice(4, 20))).map(([file]) => file)).toEqual([]);
    expect(summaryOf(redacted).sessions.length).toBe(summaryOf(plain).sessions.length);
    expect(summaryOf(redacted).totals.tokens).toEqual(summaryOf(plain).totals.tokens);
    // Counted where the token is shown, not again for the keys that carry it (regression: 8), nor
    // for the archived copy of the thread, which holds nothing more and is listed by its path only.
    expect(summaryOf(redacted).sharing?.redactions?.['github-token']).toBe(4);
  });

  it('leaves no secret that an id carried, and still ties the entries together (regression: ids were kept as written)', async () => {
    const token = PLANTED.githubPat;
    const input = await tempDir('bough-ids-');
    const pi = (await readFile(join(FIXTURES, 'pi', 'minimal-v3.jsonl'), 'utf8')).replace(/a000000(\d)/g, `${token}-$1`).replace(/toolu_1/g, `${token}-call`);
    await writeFile(join(input, 'ids.jsonl'), pi);
    const base = { inputs: [input], scope: ALL_UTC, environment: { env: {}, home: HOME }, now: NOW } satisfies Partial<BuildOptions>;
    const plain = await buildInto('ids-plain', base);
    expect([...plain.files.values()].some((text) => text.includes(token))).toBe(true);
    const redacted = await buildInto('ids-redacted', { ...base, redact: true });
    expect([...redacted.files].filter(([, text]) => text.includes(token.slice(4, 20))).map(([file]) => file)).toEqual([]);
    const shape = (built: Built) => summaryOf(built).sessions.map((s) => {
      const { prompts, replies, branches, entries, tokens } = s as Record<string, unknown>;
      return { prompts, replies, branches, entries, tokens };
    });
    expect(shape(redacted)).toEqual(shape(plain));
    expect(shape(redacted)[0]).toMatchObject({ prompts: 1, replies: 2, branches: 1, entries: 7 });
    // The tool result still finds its call, by the call's id.
    const page = [...redacted.files].find(([file]) => file.startsWith('sessions/') && file.endsWith('.html'))?.[1] ?? '';
    expect(page).toContain('class="about">src/cart.ts<');
  });

  // Regression: --redact with --project matched the folder as redacted ("~/webshop"), so a project
  // chosen by a part of its path in the home folder was left out of the report, its cost with it.
  it.each(['planted-user', '/home/planted-user/webshop', 'WEBSHOP', '~', '~/webshop'])('picks the projects --project %s picks without redaction', async (project) => {
    const input = await tempDir('bough-project-');
    const session = (id: string, cwd: string) =>
      [
        JSON.stringify({ type: 'session', version: 3, id, timestamp: '2026-03-02T10:00:00.000Z', cwd }),
        JSON.stringify({ type: 'message', id: `${id}-u1`, parentId: null, timestamp: '2026-03-02T10:00:01.000Z', message: { role: 'user', content: 'hello' } }),
      ].join('\n');
    await writeFile(join(input, 'shop.jsonl'), session('shop', '/home/planted-user/webshop'));
    await writeFile(join(input, 'other.jsonl'), session('other', '/srv/other'));
    const base = { inputs: [input], scope: { ...ALL_UTC, project }, environment: { env: {}, home: HOME }, now: NOW, cache: false } satisfies Partial<BuildOptions>;
    const plain = await build({ ...base, out: join(workDir, `project-plain-${project.replace(/\W/g, '')}`) });
    const redacted = await build({ ...base, out: join(workDir, `project-redacted-${project.replace(/\W/g, '')}`), redact: true });
    // Regression too: "~" matched every folder in the home folder once redacted, and no folder as read.
    if (project.startsWith('~')) {
      expect([plain.summary.sessions, redacted.summary.sessions]).toEqual([[], []]);
      return;
    }
    expect(plain.summary.sessions.map((s) => s.prompts)).toEqual([1]);
    expect(redacted.summary.sessions.map((s) => [s.prompts, s.cwd])).toEqual([[1, '~/webshop']]);
    // The filter is shown as the folders are: the home folder in it redacted too.
    expect(redacted.summary.filters.project).toBe(project.replace(HOME, '~'));
    const index = await readFile(join(workDir, `project-redacted-${project.replace(/\W/g, '')}`, 'index.html'), 'utf8');
    expect(index).not.toContain(HOME);
  });

  it('leaves no secret that a Claude Code system subtype carried (regression: its _ became spaces, hiding it)', async () => {
    const token = PLANTED.anthropicPrompt;
    const input = await tempDir('bough-subtype-');
    const transcript = join(input, 'claude', 'projects', '-home-planted-user-app');
    await mkdir(transcript, { recursive: true });
    const line = (fields: object) => JSON.stringify({ isSidechain: false, cwd: '/home/planted-user/app', sessionId: '77777777-7777-4777-8777-777777777777', version: '2.1.30', ...fields });
    await writeFile(join(transcript, '77777777-7777-4777-8777-777777777777.jsonl'), [
      line({ type: 'user', uuid: 'u-1', parentUuid: null, timestamp: '2026-03-02T10:00:00.000Z', message: { role: 'user', content: 'hello' } }),
      line({ type: 'system', uuid: 's-1', parentUuid: 'u-1', timestamp: '2026-03-02T10:00:01.000Z', subtype: token, content: 'a notice', level: 'info' }),
      line({ type: 'system', uuid: 's-2', parentUuid: 's-1', timestamp: '2026-03-02T10:00:02.000Z', subtype: 'api_error', content: 'overloaded', level: 'error' }),
    ].join('\n') + '\n');
    const base = { inputs: [input], scope: ALL_UTC, environment: { env: {}, home: HOME }, now: NOW } satisfies Partial<BuildOptions>;
    const redacted = await buildInto('subtype-redacted', { ...base, redact: true });
    const pieces = token.split('_').filter((piece) => piece.length >= 8);
    expect([...redacted.files].filter(([, text]) => pieces.some((piece) => text.includes(piece))).map(([file]) => file)).toEqual([]);
    const page = [...redacted.files].find(([file]) => file.startsWith('sessions/') && file.endsWith('.html'))?.[1] ?? '';
    // A subtype of plain words still reads as words.
    expect(page).toContain('api error');
  });
});

// Regression (a review of what a folder holds): a report made to share for one project listed
// another project's files on its data-quality page and in summary.json, each damaged line's
// start quoted ("Pluto merger price is 41 per share…").
describe('a report made to share, asked for one project', () => {
  it('lists the problems of the files it shows only, and counts the others', async () => {
    const dir = await tempDir();
    const pi = (folder: string, cwd: string, prompt: string, damaged: string | null) =>
      [
        JSON.stringify({ type: 'session', version: 3, id: `${folder}-id`, timestamp: '2026-10-12T10:00:00.000Z', cwd }),
        JSON.stringify({ type: 'message', id: 'u1', parentId: null, timestamp: '2026-10-12T10:00:01.000Z', message: { role: 'user', content: prompt } }),
        ...(damaged === null ? [] : [`{"type":"message","id":"u2","message":{"role":"user","content":"${damaged}`]),
        JSON.stringify({ type: 'message', id: 'a1', parentId: 'u1', timestamp: '2026-10-12T10:00:02.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 }, stopReason: 'stop' } }),
      ].join('\n');
    for (const [folder, cwd, damaged] of [['--srv-app--', '/srv/app', 'the app line'], ['--srv-plutoproj--', '/srv/plutoproj', 'Pluto merger price is 41 per share']] as const) {
      await mkdir(join(dir, folder));
      await writeFile(join(dir, folder, `${folder}.jsonl`), `${pi(folder, cwd, 'work', damaged)}\n`);
    }
    const buildWith = async (redact: boolean) => {
      const out = join(await tempDir(), 'report');
      const { summary } = await build({ inputs: [dir], out, redact, scope: { ...ALL_UTC, project: 'app' }, environment: { env: {}, home: await tempDir() }, now: NOW });
      return { summary, page: await readFile(join(out, 'data-quality.html'), 'utf8') };
    };
    const shared = await buildWith(true);
    expect(shared.summary.diagnostics.items.map((d) => d.file)).toEqual([join(dir, '--srv-app--', '--srv-app--.jsonl')]);
    expect(shared.summary.diagnostics.byReason['truncated-line']).toBe(2);
    expect(shared.page).not.toMatch(/plutoproj|Pluto/);
    expect(shared.page).toContain('1 problem of files this report does not show');
    const plain = await buildWith(false);
    expect(plain.summary.diagnostics.items).toHaveLength(2);
    expect(plain.page).toContain('plutoproj');
  });

  // Regression (a hostile look): the report folder's own problems (an archive record that does
  // not read) were left out with the other files', though the run said the page lists them.
  it('still lists the report folder’s own problems', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, '--srv-app--'));
    await writeFile(join(dir, '--srv-app--', 'a.jsonl'), `${JSON.stringify({ type: 'session', version: 3, id: 'a', timestamp: '2026-10-12T10:00:00.000Z', cwd: '/srv/app' })}\n${JSON.stringify({ type: 'message', id: 'u1', parentId: null, timestamp: '2026-10-12T10:00:01.000Z', message: { role: 'user', content: 'work' } })}\n`);
    const out = join(await tempDir(), 'report');
    const environment = { env: { BOUGH_CONFIG_DIR: join(await tempDir(), 'config') }, home: await tempDir() };
    await build({ inputs: [dir], out, redact: true, scope: ALL_UTC, environment, now: NOW });
    await appendFile(join(out, 'archive', 'sessions.jsonl'), '{"broken\n');
    const { summary } = await build({ inputs: [dir], out, redact: true, scope: { ...ALL_UTC, project: 'app' }, environment, now: NOW });
    expect(summary.diagnostics.items.map((d) => d.reason)).toContain('archive-unreadable');
  });
});

// Regression (a sharing review, 2026-12-07): a notice's one-line summary and a session's title are
// cut short as the file is read, before --redact sees them; a secret the cut fell in was left as
// its start (`DB_PASSWORD=Zq8sT3cretPassw0r…`), which redaction takes for a placeholder or cannot
// know, while the full text below it was redacted.
describe('--redact on texts cut short', () => {
  it('leaves no start of a secret the cut fell in, in a notice’s summary or a session’s title', async () => {
    const passwords = ['Zq8sT3cretPassw0rdXyz987', 'Mq7pL2secretHunter55Abc', 'Kp4vN9urlPassw0rdQrs321', 'Tq5wR8titlePassw0rdMno654', 'Kp4vXw9mLt2rQzb7Hq'];
    const filler = (length: number) => `${'note '.repeat(40).slice(0, length - 1)} `;
    const sessionId = '72222222-2222-4222-8222-222222222222';
    const line = (uuid: string, parentUuid: string | null, second: number, type: string, fields: object) => ({ parentUuid, isSidechain: false, cwd: '/work/shop', sessionId, version: '2.1.30', type, uuid, timestamp: `2026-11-07T10:00:${String(second).padStart(2, '0')}.000Z`, ...fields });
    const error = `${filler(85)}connect postgres://admin:${passwords[2]}@db.corp.example:5432/shop failed`;
    const claude = [
      line('u1', null, 0, 'user', { message: { role: 'user', content: 'Start' } }),
      line('a1', 'u1', 1, 'assistant', { requestId: 'req_A', message: { id: 'msg_A', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: 5, output_tokens: 5 } } }),
      line('u2', 'a1', 2, 'user', { message: { role: 'user', content: `<command-name>/deploy</command-name>\n<command-message>deploy</command-message>\n<command-args>${filler(90)}DB_PASSWORD=${passwords[0]} --more flags here</command-args>` } }),
      line('u3', 'u2', 3, 'user', { message: { role: 'user', content: `<local-command-stdout>${filler(95)}mysql -u root -p${passwords[1]} -h db</local-command-stdout>` } }),
      line('s1', 'u3', 4, 'system', { subtype: 'api_error', level: 'error', content: error, error: { message: error } }),
      // The cut in the word after it (a hostile look: the whole password before "…" read as a placeholder).
      line('u4', 's1', 5, 'user', { message: { role: 'user', content: `<local-command-stdout>${filler(79)}mysql --password=${passwords[4]} --user=root -h db</local-command-stdout>` } }),
    ];
    const pi = [
      { type: 'session', version: 3, id: 'cut-title', timestamp: '2026-11-07T11:00:00.000Z', cwd: '/work/shop' },
      { type: 'message', id: 'p1', parentId: null, timestamp: '2026-11-07T11:00:01.000Z', message: { role: 'user', content: [{ type: 'text', text: `${filler(70)}PGPASSWORD=${passwords[3]} psql` }], timestamp: 0 } },
    ];
    const inputs = await tempDir();
    await mkdir(join(inputs, 'projects', '-work-shop'), { recursive: true });
    await writeFile(join(inputs, 'projects', '-work-shop', `${sessionId}.jsonl`), claude.map((r) => JSON.stringify(r)).join('\n'));
    await writeFile(join(inputs, 'pi.jsonl'), pi.map((r) => JSON.stringify(r)).join('\n'));
    const out = join(await tempDir(), 'report');
    await build({ inputs: [inputs], out, scope: ALL_UTC, redact: true, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    const files = (await readdir(out, { recursive: true })).filter((name) => /\.(html|json|csv)$/.test(name));
    const everything = (await Promise.all(files.map((name) => readFile(join(out, name), 'utf8')))).join('\n');
    expect(everything).toContain('[REDACTED:');
    expect(passwords.filter((password) => everything.includes(password.slice(0, 6)))).toEqual([]);
  });

  // The principled end of it: such a line is read long and cut on the page, after --redact has
  // seen its secrets whole: one reaching past where a read-time cut fell is said as redacted, with
  // the words after it, not dropped with them.
  it('cuts a notice’s line on its page, after redaction, so a long secret the old cut fell in shows as redacted', async () => {
    const password = 'Mq7pL2secretHunter55AbcXyzQ8rT4wV6yU1iO3pA9sD2fG5';
    const sessionId = '73333333-3333-4333-8333-333333333333';
    const line = (uuid: string, parentUuid: string | null, second: number, type: string, fields: object) => ({ parentUuid, isSidechain: false, cwd: '/work/shop', sessionId, version: '2.1.30', type, uuid, timestamp: `2026-11-07T10:00:${String(second).padStart(2, '0')}.000Z`, ...fields });
    const claude = [
      line('u1', null, 0, 'user', { message: { role: 'user', content: 'Start' } }),
      line('a1', 'u1', 1, 'assistant', { requestId: 'req_A', message: { id: 'msg_A', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: 5, output_tokens: 5 } } }),
      line('u2', 'a1', 2, 'user', { message: { role: 'user', content: `<local-command-stdout>${'note '.repeat(14)}mysql -u root -p${password} -h db</local-command-stdout>` } }),
    ];
    const inputs = await tempDir();
    await mkdir(join(inputs, 'projects', '-work-shop'), { recursive: true });
    await writeFile(join(inputs, 'projects', '-work-shop', `${sessionId}.jsonl`), claude.map((r) => JSON.stringify(r)).join('\n'));
    const out = join(await tempDir(), 'report');
    await build({ inputs: [inputs], out, scope: ALL_UTC, redact: true, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    const pages = (await readdir(out, { recursive: true })).filter((name) => name.startsWith('sessions/') && name.endsWith('.html'));
    const html = (await Promise.all(pages.map((name) => readFile(join(out, name), 'utf8')))).join('\n');
    const lines = [...html.matchAll(/<p class="event-text">([^<]*)/g)].map((m) => m[1] ?? '').filter((text) => text.includes('mysql'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/mysql -u root -p\[REDACTED:[a-z-]+\] -h db$/);
    expect(html).not.toContain(password.slice(0, 6));
  });

  // A hostile look at that (2026-12-07): a notice's line was redacted alone, apart from the lines
  // that say what it is (grep's numbered lines); its text was redacted with the harness's tags and
  // colour codes in it, which hid a line's key; an MCP tool's line was its first argument, a
  // password; a pass phrase in curly quotes lost its first word only; and a notice's secret was
  // counted twice.
  it('redacts a notice’s line with its text, a text as its page shows it, and counts each secret once', async () => {
    const sessionId = '74444444-4444-4444-8444-444444444444';
    const line = (uuid: string, parentUuid: string | null, second: number, type: string, fields: object) => ({ parentUuid, isSidechain: false, cwd: '/work/shop', sessionId, version: '2.1.30', type, uuid, timestamp: `2026-11-07T10:00:${String(second).padStart(2, '0')}.000Z`, ...fields });
    const escape = '\u001b';
    const assistant = (uuid: string, parent: string, second: number, id: string, content: object[]) => line(uuid, parent, second, 'assistant', { requestId: `req_${id}`, message: { id: `msg_${id}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content, stop_reason: 'end_turn', usage: { input_tokens: 5, output_tokens: 5 } } });
    const claude = [
      line('u1', null, 0, 'user', { message: { role: 'user', content: 'connect with DB_PASSWORD=“umber falcon sky” and run the migration' } }),
      assistant('a1', 'u1', 1, 'A', [{ type: 'tool_use', id: 'toolu_1', name: 'mcp__postgres__connect', input: { password: 'amber kestrel dawn', host: 'db' } }]),
      line('r1', 'a1', 2, 'user', { message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'connected' }] } }),
      line('u2', 'r1', 3, 'user', { message: { role: 'user', content: `<local-command-stdout>secret: violet harbor moon</local-command-stdout>` } }),
      line('u3', 'u2', 4, 'user', { message: { role: 'user', content: `<local-command-stdout>Connected.\n${escape}[1mDB_PASSWORD${escape}[22m=${escape}[1mZq8sKp4vB7xW${escape}[22m\n</local-command-stdout>` } }),
      line('s1', 'u3', 5, 'system', { subtype: 'stop_hook_summary', level: 'error', content: '', hookErrors: ['config/app.yml:12:password: ochre lantern reef\nconfig/app.yml:13:user: admin'] }),
    ];
    const inputs = await tempDir();
    await mkdir(join(inputs, 'projects', '-work-shop'), { recursive: true });
    await writeFile(join(inputs, 'projects', '-work-shop', `${sessionId}.jsonl`), claude.map((r) => JSON.stringify(r)).join('\n'));
    const out = join(await tempDir(), 'report');
    const { summary } = await build({ inputs: [inputs], out, scope: ALL_UTC, redact: true, environment: { env: {}, home: await tempDir() }, now: new Date('2026-12-01T00:00:00Z'), cache: false });
    const files = (await readdir(out, { recursive: true })).filter((name) => /\.(html|json|csv|js)$/.test(name));
    const everything = (await Promise.all(files.map((name) => readFile(join(out, name), 'utf8')))).join('\n');
    expect(['falcon', 'kestrel', 'harbor', 'lantern', 'Zq8sKp4v'].filter((word) => everything.includes(word))).toEqual([]);
    // One secret each in the prompt, the tool's arguments, two notices' texts and the hook's: each counted once.
    expect(Object.values(summary.sharing.redactions).reduce((sum, n) => sum + n, 0)).toBe(5);
  });

  // A second hostile look (2026-12-07): a pass phrase in curly single quotes holding an apostrophe
  // went whole; a tag with capitals, underscores, a digit or attributes still hid a line's key;
  // colour codes with `:` or `>` in them were not known as codes; other quotes (German single,
  // full-width, corner brackets, mixed straight and curly) lost the first word only; a secret given
  // as a name and a value, or a password typed again, showed.
  it('redacts what the fixes of the first look still left', () => {
    const sharer = createSharer({ redact: true, omit: new Set(), home: HOME });
    const escape = '\u001b';
    const texts = [
      'password: ‘don’t tread snakes quietly’',
      'DB_PASSWORD=‘it’s raining cats and dogs’',
      '<tool_use_error>password: ember quartz willow</tool_use_error>',
      '<Output>password: ember quartz willow</Output>',
      '<bash-stdout data-x="1">password: ember quartz willow</bash-stdout>',
      `DB_PASSWORD=${escape}[38:2:255:0:0mXa8sKd93hfLmQ3`,
      `DB_PASSWORD=${escape}[>4;2mWq7pLx2mN9vB`,
      `${escape}[38:5:33m${HOME}/private-client`,
      ...['‚opal drift lantern reef‘', '＂opal drift lantern reef＂', '「opal drift lantern reef」', '“opal drift lantern reef"', '"opal drift lantern reef”'].map((quoted) => `DB_PASSWORD=${quoted}`),
    ];
    const shown = texts.map((text) => sharer.text(text));
    expect(shown.filter((text) => /tread|raining|quartz|Xa8sKd93|Wq7pLx2m|planted-user|drift/.test(text))).toEqual([]);
    const call = { type: 'toolCall', id: 't1', name: 'mcp__ci__set', arguments: { value: 'Xp4rTn8wQz2Lk7', name: 'STRIPE_WEBHOOK_SECRET', password: 'violet engine harbor', password_confirmation: 'violet engine harbor' }, argumentsError: null, effect: { action: 'other', paths: [], command: null, summary: '' } };
    const entry = { ...reply('r1', '2026-11-01T10:00:00Z', null), content: [call] } as Entry;
    const shared = JSON.stringify(sharer.file({ ...sessionWith(null), entries: [entry] }).entries);
    expect(shared).toContain('mcp__ci__set');
    expect(shared).not.toMatch(/Xp4rTn8w|violet/);
    expect(firstTextArgument({ value: 'Xp4rTn8wQz2Lk7', name: 'STRIPE_WEBHOOK_SECRET' })).toBe('STRIPE_WEBHOOK_SECRET');
    // And a cut text: a pass phrase after `-p"`.
    expect(shortened('Please log in to the db with mysql -u root -p"amber falcon river lantern quartz" and list tables', 60)).toBe('Please log in to the db with mysql -u root -p …');
  });

  // A third look: a secret given as a name and its value in text (JSON a command printed, SSM's
  // parameter, a container's environment in YAML, XML properties), archives' and openssl's
  // passwords; and CloudFormation's ParameterKey taken for a secret's name, hiding every name.
  it('redacts a secret given as a name and its value in text, and archives’ passwords', () => {
    const sharer = createSharer({ redact: true, omit: new Set(), home: HOME });
    const texts = [
      '{"environment":[{"name":"DB_PASSWORD","value":"PairLeak1amber"}]}',
      '{\n  "Parameter": {\n    "Name": "/prod/db/password",\n    "Type": "SecureString",\n    "Value": "PairLeak4cedar"\n  }\n}',
      '  env:\n  - name: API_TOKEN\n    value: "Canary7Qa1zWs"\n',
      '- name: DB_PASSWORD\n  value: Canary6Pl0oKm\n',
      '<property name="javax.persistence.jdbc.password" value="XmlLeak8amber"/>',
      '<property name="hibernate.connection.password">XmlLeak9falcon</property>',
      '<entry key="api_token">XmlLeakAriver</entry>',
      "unzip -P 'CanaryA amber falcon' a.zip",
      '7z x -p"CanaryB amber falcon" a.7z',
      '7z x -pCanaryC99xx a.7z',
      'zip -P CanaryD99xx -r a.zip .',
      'openssl enc -aes-256-cbc -k CanaryE99xx -in a',
    ];
    // And its hostile look: a secret's name after another name field, many fields between, an
    // attribute between, Hadoop's <name>/<value>, CloudFormation's YAML; and a word of prose after
    // an archiver's flag is no password.
    texts.push(
      '{"name":"prod","key":"DB_PASSWORD","Meta":{"a":1},"Tags":[],"x1":"1","x2":"2","x3":"3","x4":"4","x5":"5","value":"PairLeak5Qz9x"}',
      '<property name="db.password" description="x" value="XmlLeakBQz9x"/>',
      '<property><name>javax.jdo.option.ConnectionPassword</name><value>XmlLeakCQz9x</value></property>',
      'Environment:\n  - Name: DB_PASSWORD\n    Value: CanaryFQz9x',
    );
    expect(texts.map((text) => sharer.text(text)).filter((text) => /PairLeak|Canary|XmlLeak/.test(text))).toEqual([]);
    // Names and values that are no secrets stay.
    const plain = ['{"name": "max_tokens", "value": "4096"}', '{"ParameterKey": "InstanceType", "ParameterValue": "t3.micro"}', '- name: LOG_LEVEL\n  value: debug\n', 'Use unzip -P to pass the password; zip -P flag is insecure; openssl -k option too.'];
    expect(plain.map((text) => sharer.text(text))).toEqual(plain);
    const stack = { ParameterKey: 'InstanceType', ParameterValue: 't3.micro' };
    const call = { type: 'toolCall', id: 't1', name: 'mcp__cfn__deploy', arguments: { parameters: [stack, { ParameterKey: 'DbPassword', ParameterValue: 'Canary2Xa8sKd93' }, { name: 'prod', key: 'DB_PASSWORD', value: 'Canary1Zq8sKd93hf' }] }, argumentsError: null, effect: { action: 'other', paths: [], command: null, summary: '' } };
    const entry = { ...reply('r1', '2026-11-01T10:00:00Z', null), content: [call] } as Entry;
    const shared = JSON.stringify(sharer.file({ ...sessionWith(null), entries: [entry] }).entries);
    expect(shared).toContain('{"ParameterKey":"InstanceType","ParameterValue":"t3.micro"}');
    expect(shared).not.toMatch(/Canary[12]/);
  });

  // Regressions (a fifth hostile look): a password of lower-case letters given to an archiver or
  // openssl, even quoted or glued to its flag, was taken for prose; a brace in a string between a
  // secret's name and its value (or in a value before its name) hid the value; mixed quotes cut a
  // pass phrase short, and a value holding the other quote was missed; SSM's YAML and CloudFormation's,
  // a Python or JavaScript object printed, YAML's flow style, Hadoop's value on its own line.
  it('redacts the shapes a fifth hostile look found kept', () => {
    const sharer = createSharer({ redact: true, omit: new Set(), home: HOME });
    const texts = [
      'unzip -P dragonfly backup.zip',
      '7z x -pdragonfly archive.7z',
      "unzip -P 'dragonfly' a.zip",
      'openssl enc -d -k "tigerlily" -in a',
      'zip -rP CanaryZ2x out.zip dir',
      "openssl enc -d -in a -passin 'pass:zebra CanaryO3x'",
      '{"name":"DB_PASSWORD","note":"see {docs","value":"CanaryA1x"}',
      '{"Name":"/prod/db/password","Description":"rotate with {script","Type":"SecureString","Value":"CanaryK4x"}',
      '{"value":"Canary}A3x","name":"DB_PASSWORD"}',
      "PASSWORD=‘zebra tango CanaryC1x' done",
      'PASSWORD=„zebra tango CanaryC3x" done',
      'PASSWORD="zebra tango CanaryC5x“ done',
      'PASSWORD="abc”CanaryW1x"',
      '{"password": "he said “hi” CanaryW2x"}',
      '- name: DB_PASSWORD\n  value: "pa\'ss CanaryA4x"',
      "- name: DB_PASSWORD\n  value: 'it''s CanaryV3x'\n",
      '<add key="DbPassword" value="Tr0ub4dor\'sCanaryA5x"/>',
      'Parameter:\n  Name: /prod/db/password\n  Type: SecureString\n  Value: CanaryA7x\n  Version: 1',
      '- ParameterKey: DbPassword\n  ParameterValue: CanaryA8x',
      "{'Parameter': {'Name': '/prod/db/password', 'Type': 'SecureString', 'Value': 'CanaryPY1x', 'Version': 1}}",
      "[ { name: 'DB_PASSWORD', value: 'CanaryJS1x' } ]",
      '- {name: DB_PASSWORD, value: CanaryV6x}',
      '<property>\n  <name>fs.s3a.secret.key</name>\n  <value>\n    CanaryH1x\n  </value>\n</property>',
      '<property><name>db.password</name><description>S3</description><value>CanaryH2x</value></property>',
    ];
    expect(texts.map((text) => sharer.text(text)).filter((text) => /dragonfly|tigerlily|Canary/.test(text))).toEqual([]);
    // A code span around a flag keeps its closing mark; a container's value from a secret, and
    // dotted keys of words, stay.
    const plain = [
      'Run `zip -P` with care, or `7z x -p` then.',
      '- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: db\n      key: password\n- name: LOG_LEVEL\n  value: debug\n',
      'login.password.label: Password',
      'zip -P is insecure. Use zip -e instead.',
    ];
    expect(plain.map((text) => sharer.text(text))).toEqual(plain);
    // And a hostile look at that round: a straight quote closed at a curly one inside it (an
    // apostrophe, a German quotation), a password in a code span, eight attributes between, an
    // object in a secret's object after an open parenthesis, forty objects before read as never
    // closed; and a file's name taken for an archiver (`find -name "*.7z" -print`), words of prose
    // or a locale's, and code's tables of fields, taken for secrets.
    const sixth = [
      "export PASSPHRASE='the twins’ birthday CanaryS1x'",
      'PASSWORD="Sag „Hallo“ zu CanaryS2x"',
      'Run `unzip -P dragonfly`, then open the folder.',
      '<input name="api_key" type="text" id="api-key" class="form-control input-lg" placeholder="API key" autocomplete="off" spellcheck="false" aria-label="API key" value="CanaryS3x">',
      "const settings = { 'secret': { re: /(a|b/, 'password': { value: 'CanaryS4xYz7w' } } };",
      `${Array.from({ length: 40 }, (_, n) => `{'user': 'u${n}', 'password': {  # user's own\n'value': 'Fx${n}'\n}}\n`).join('')}ADMIN = {'password': {'value': 'CanaryS5xYz7w'}}`,
      'bash -c "zip -P CanaryS6x a.zip notes.txt"',
    ];
    expect(sixth.map((text) => sharer.text(text)).filter((text) => /dragonfly|CanaryS/.test(text))).toEqual([]);
    const words = [
      'find /backups -name "*.7z" -print',
      'java -jar tool.jar in.7z -port 8080',
      "tar --exclude='*.zip' -cPzf backup.tar.gz /etc",
      "grep -r --include='*.zip' -P 'needle' .",
      'wget https://x.io/file.zip -P downloads -q',
      'mvn -Dpackaging=zip package -P release -DskipTests',
      'Note that zip -P is weak/insecure',
      'The zip -P option - which is weak',
      'Use zip -P password archive.zip files',
      '{"ui.master.key": "Masterschlüssel", "labels": {"secret.key": "Secreto"}}',
      "const columns = [{ key: 'password', value: 'Passwort' }, { key: 'token', value: 'Jeton' }];",
      "params: [{ name: 'page_token', value: nextPage }, { name: 'auth_token', value: 'session' }]",
    ];
    expect(words.map((text) => sharer.text(text))).toEqual(words);
    // A backslash in a shell's single quotes escapes nothing: the line after stays.
    expect(sharer.text("export PASSWORD='Cq9:\\dir\\'\necho ok")).toBe("export PASSWORD='[REDACTED:assignment]'\necho ok");
  });

  // And hostile looks at that: a secret whole before the cut ("--password=Hn5b…", or before a next
  // word cut away) read as a placeholder; a one-word text kept a base64 secret up to its last `/`;
  // a secret holding `(` or `Ä` kept its start; a quoted pass phrase showed its first words, in any
  // quotes; a CJK title was "…" alone.
  it('leaves out the run of marks at the cut, cut or whole, and a quoted secret’s words, and ends in " …"', () => {
    expect(shortened('short', 10)).toBe('short');
    expect(shortened('one two three', 10)).toBe('one …');
    expect(shortened('see DB_PASSWORD=Zq8sT3cret', 20)).toBe('see …');
    expect(shortened('--password=Hn5b --verbose', 16)).toBe('…');
    expect(shortened('mysql --password=Kp4vXw9mLt2rQzb7Hq --user=root', 40)).toBe('mysql --password=Kp4vXw9mLt2rQzb7Hq …');
    expect(shortened('mysql -pKp4vXw9mLt2rQz(b7Hq -h db', 24)).toBe('mysql …');
    expect(shortened('DB_PASSWORD=Zq8sKp4vXw9mLt2rÄb7 now', 30)).toBe('…');
    expect(shortened('SESSION_SECRET=Zq8sA9d8/Kp4vQ9wE2rT7/yU1i+AbCd', 30)).toBe('…');
    for (const quote of ['"', "'", '`', '“', '«']) expect(shortened(`login with password: ${quote}umber falcon dances`, 36)).toBe('login with password: …');
    expect(shortened('请帮我修复登录页面的错误并且测试', 11)).toBe('请帮我修复登录页面 …');
    // A JSON line keeps its keys, and the words of a text that names no secret.
    expect(shortened('{"type":"message","note":"the deploy key is here","id":"x1"}', 46, true)).toBe('{"type":"message","note":"the deploy key …');
    expect(shortened('{"type":"message","password":"umber falcon dances"}', 44, true)).toBe('{"type":"message","password": …');
    // A fourth look: a pass phrase holding an apostrophe, after a flag and a space, or in a JSON
    // line's escaped quotes; a quotation the cut falls in goes from its quote, whatever names it.
    expect(shortened('remember password: "Bob\'s dog ate my lunch on Tuesday"', 40)).toBe('remember password: …');
    expect(shortened('export PASSWORD="it’s raining cats and dogs"', 36)).toBe('export PASSWORD= …');
    expect(shortened('run --passphrase "correct horse battery staple" --user admin', 40)).toBe('run --passphrase …');
    expect(shortened('{"content":"run it with PASSWORD=\\"correct horse battery staple\\" please"}', 50, true)).toBe('{"content":"run it with PASSWORD= …');
    expect(shortened("it's a 'quoted' word and don't stop here at all", 40)).toBe("it's a 'quoted' word and don't stop …");
    // The fifth look: a stray quote before a secret's quotation paired with it; a key named as
    // `passwd` or `secret_key_base` was not known as one.
    expect(shortened('error near " here: mysql --password "umber falcon sky" --user root', 50)).toBe('error near " here: mysql --password …');
    expect(shortened('{"a":"b","passwd":"umber falcon sky"}', 30, true)).toBe('{"a":"b","passwd": …');
    expect(shortened('set secret_key_base: "umber falcon sky and more', 40)).toBe('set secret_key_base: …');
  });
});
