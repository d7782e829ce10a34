// Regression (this session): a secret a command printed alone (`echo $DEPLOY_TOKEN`) was kept under
// --share when it had no shape a rule knows: nothing in the output says what it is. The command
// that printed it says so, and the output goes, in every agent's sessions.

import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { main, type CliIo } from '../src/cli.js';
import { printedSecrets, printsSecret } from '../src/share/printed-secrets.js';
import { tempDir } from './support/fixtures.js';

const HOME = '/home/planted-user';
const NOW = new Date('2026-12-01T12:00:00Z');
/** A key of no service's shape: only the command that printed it says what it is. */
const SECRET = 'q8Wm3Zr7Tk2Lp9Vx4Nc6Hd';
const POLLED = 'Vt5Lq9Xw2Rb8Ko3N';
const DECODED = 'Zp4Kx8Wm2Qa7';
const ENCODED = Buffer.from(DECODED).toString('base64');

describe('commands that print a secret alone', () => {
  it.each([
    'echo $DEPLOY_TOKEN',
    'echo "${DB_PASSWORD}"',
    'printf %s "$API_KEY"',
    'cd app && source .env && echo -n $STRIPE_SECRET_KEY',
    'echo $API_KEY; echo $DB_PASSWORD',
    'echo $OPENAI_API_KEY | head -c 12',
    'printenv ANTHROPIC_API_KEY',
    'Write-Output $env:AZURE_OPENAI_API_KEY',
    `python3 -c "import os; print(os.environ['DB_PASSWORD'])"`,
    'node -e "console.log(process.env.API_KEY)"',
    `kubectl -n prod get secret db -o jsonpath='{.data.password}' | base64 -d`,
    'gcloud secrets versions access latest --secret=db-password',
    'aws secretsmanager get-secret-value --secret-id prod/db --query SecretString --output text',
    'aws ecr get-login-password --region us-east-1',
    'vault kv get -field=password secret/db',
    'op read op://vault/db/password',
    'security find-generic-password -s app -w',
    'az keyvault secret show --vault-name kv --name db --query value -o tsv',
    'doppler secrets get API_KEY --plain',
    `curl -s https://auth.example/token -d grant_type=client_credentials | jq -r .access_token`,
    'cat /run/secrets/db_password',
    'sudo cat ~/.config/app/api_token.txt',
    'terraform output -raw db_password',
    'node -p "process.env.API_KEY"',
    `python3 -c "import keyring; print(keyring.get_password('svc', 'ana'))"`,
    `kubectl config view --raw -o jsonpath='{.users[0].user.token}'`,
    // A secret's line found in a file, then cut to its value.
    'grep API_KEY .env | cut -d= -f2',
    `grep '^DB_PASSWORD' .env | cut -d'=' -f2-`,
    `grep SECRET_KEY config.env | awk -F= '{print $2}'`,
    `grep -m1 TOKEN .env | sed 's/.*=//'`,
    // From a hostile look: an echo for the line's end after it, a container's or a runner's exec,
    // code reading JSON or run from a here-document, PowerShell, a shell given the command.
    `kubectl get secret db -o jsonpath='{.data.password}' | base64 -d; echo`,
    'kubectl -n prod get secret api -o jsonpath="{.data.token}" | base64 --decode && echo',
    `oc get secret db -o jsonpath='{.data.password}' | base64 -d`,
    `grep '^API_KEY=' .env | cut -d= -f2`,
    `awk -F= '/^DB_PASSWORD=/{print $2}' .env`,
    'docker exec api printenv STRIPE_SECRET_KEY',
    'docker compose exec api printenv DB_PASSWORD',
    'kubectl exec deploy/api -- printenv API_TOKEN',
    'doppler run -- printenv API_KEY',
    "ssh prod 'printenv DATABASE_PASSWORD'",
    'ssh -i key.pem -p 2222 ana@db.example cat /run/secrets/db_password',
    'fly ssh console -a app -C "printenv API_KEY"',
    `curl -s https://auth.example/token | python3 -c "import sys,json; print(json.load(sys.stdin)['access_token'])"`,
    "python3 - <<'EOF'\nimport os\nprint(os.environ['DB_PASSWORD'])\nEOF",
    `uv run python -c "import os; print(os.environ['API_KEY'])"`,
    `perl -e 'print $ENV{API_KEY}'`,
    '$env:OPENAI_API_KEY',
    `[Environment]::GetEnvironmentVariable('API_KEY','User')`,
    'pwsh -NoProfile -Command Write-Output $env:API_KEY',
    'bash -lc "echo $API_KEY"',
    'printenv API_KEY DB_PASSWORD',
    'az keyvault secret show --vault-name kv --name db --query value',
    `jq -r '.token // empty' creds.json`,
    'cat .token',
    // From the twenty-fourth look: more runners and shells, secret managers, random secrets, .env cutters.
    'kubectl -n prod exec deploy/api -- printenv API_TOKEN',
    "docker exec api sh -c 'echo $DB_PASSWORD'",
    `ssh prod 'bash -lc "printenv DB_PASSWORD"'`,
    'sudo -u app printenv API_KEY',
    'ssh ubuntu@10.0.0.5 -- printenv DB_PASSWORD',
    'docker run --rm --env-file .env alpine printenv API_KEY',
    'dotenv -e .env -- printenv API_KEY',
    'op read "op://Shared/Prod DB/password"',
    'bw get password github.com',
    'vault login -token-only -method=userpass username=ana',
    'az cognitiveservices account keys list -n ai -g rg --query key1 -o tsv',
    'aws sts assume-role --role-arn arn:aws:iam::1:role/x --role-session-name s --query Credentials.SecretAccessKey --output text',
    'aws ssm get-parameter --name /shop/prod/DB_PASSWORD --with-decryption --query Parameter.Value --output text',
    'aws ssm get-parameter --name /shop/prod/DB_PASSWORD --with-decryption | jq -r .Parameter.Value',
    'gh api -X POST repos/acme/shop/actions/runners/registration-token --jq .token',
    "bun -e 'console.log(Bun.env.API_KEY)'",
    `python3 -c "from django.core.management.utils import get_random_secret_key; print(get_random_secret_key())"`,
    'bin/rails secret',
    'grep API_KEY .env | head -1 | cut -d= -f2',
    "sed -n 's/^API_KEY=//p' .env",
    "grep -oP 'API_KEY=\\K.*' .env",
    `awk -F= '$1=="API_KEY"{print $2}' .env`,
    `printenv | awk -F= '/^API_KEY=/{print $2}'`,
    'cat <<< "$API_KEY"',
    'npm config get //registry.npmjs.org/:_authToken',
    // From the twenty-fifth look.
    'docker run --rm --cpus 2 -m 512m alpine printenv API_KEY',
    '(Get-ChildItem Env:API_KEY).Value',
    'Get-ChildItem Env:API_KEY | Select-Object -ExpandProperty Value',
    `python3 -c 'import os; print(os.environ.get("API_KEY", ""))'`,
    'jq -r .token < ~/.config/app/auth.json',
    'aws secretsmanager get-secret-value --secret-id prod/db | jq -r .SecretString | jq -r .password',
    "aws ssm get-parameters --names /app/prod/API_KEY --with-decryption --query 'Parameters[0].Value' --output text",
    "kubectl get secret api -o jsonpath='{.data.api\\.key}' | base64 -d",
    "grep API_KEY .env | sed 's/API_KEY=//g'",
  ])('%s', (command) => {
    expect(printsSecret(command)).toBe('whole');
  });

  // A few random bytes name something (`rg-shop-a3f9c2d1`): random output is taken as long as a key.
  it.each([
    'openssl rand -hex 32',
    'openssl rand 32 | base64',
    "tr -dc 'A-Za-z0-9' </dev/urandom | head -c 32; echo",
    'xxd -l 16 -p /dev/urandom',
    'openssl rand -hex 32 | tee .secret',
    'head -c 4 /dev/urandom | xxd -p',
    'python3 -c "import secrets; print(secrets.token_hex(4))"',
  ])('random: %s', (command) => {
    expect(printsSecret(command)).toBe('random');
    expect(printedSecrets('a3f9c2d1\n', 'random')).toEqual([]);
    expect(printedSecrets('9f86d081884c7d659a2feaa0c55ad015\n', 'random')).toEqual(['9f86d081884c7d659a2feaa0c55ad015']);
  });

  it('reads the first line of a password store’s entry, whose next lines are notes', () => {
    expect(printsSecret('pass show work/db')).toBe('first-line');
    expect(printedSecrets(`${SECRET}\nuser: ana\nurl: db.example`, 'first-line')).toEqual([SECRET]);
  });

  it.each([
    'echo $HOME',
    'echo "the key is $API_KEY"',
    'echo $API_KEY | wc -c',
    'echo $OPENAI_API_KEY; ls',
    'echo $API_KEY > .env',
    'printenv',
    'cat token.json | jq -r .expires_at',
    'kubectl get secret db -o yaml',
    'vault kv get secret/db',
    'pass ls',
    'cat public_key.pem',
    'git config --get user.name',
    'node -e "console.log(process.env.HOME)"',
    'grep API_KEY .env',
    'grep VERSION .env | cut -d= -f2',
    `kubectl get pods -o jsonpath='{.items[0].metadata.name}'`,
    // From a hostile look: a secret's name or another field of a secret manager's, a mounted
    // account's namespace, a word printed where the variable is set.
    `kubectl get secrets -n payments -o jsonpath='{.items[*].metadata.name}'`,
    `kubectl get secret db -o jsonpath='{.data.username}' | base64 -d`,
    'cat /var/run/secrets/kubernetes.io/serviceaccount/namespace',
    'vault kv get -field=host secret/db',
    'op read op://Private/github/username',
    'echo ${OPENAI_API_KEY:+configured}',
    "ssh prod 'ls /srv'",
    'aws secretsmanager get-secret-value --secret-id x --query ARN --output text',
    'az ad sp create-for-rbac --name app --query appId -o tsv',
    // From the twenty-fourth look: what a secret-sounding command or name prints that is none.
    'aws ssm get-parameter --name /shop/prod/DB_HOST --with-decryption --query Parameter.Value --output text',
    'az deployment group show -g rg -n main --query properties.outputs.storageAccountName.value -o tsv',
    'az appconfig kv show -n cfg --key api-url --query value -o tsv',
    'git config --global user.signingKey',
    'terraform output -raw kms_key',
    'echo $GPG_KEY',
    'echo $RECAPTCHA_SITE_KEY',
    'echo $NEXT_PUBLIC_FIREBASE_API_KEY',
    'cat /run/secrets/postgres_db',
    `node -e "console.log(process.env.OPENAI_API_KEY ? 'configured' : 'missing')"`,
    'echo ${OPENAI_API_KEY:-missing}',
    'openssl rand -help 2>&1 | head -1',
    'aws configure get aws_session_token_expiration',
    // sed without -n prints every line of the file, each a `NAME=value` word.
    "sed 's/^API_KEY=//' .env",
  ])('not %s', (command) => {
    expect(printsSecret(command)).toBeNull();
  });

  it('takes an output only when each of its lines is one word, and not a placeholder, a keyword or a count', () => {
    expect(printedSecrets(`${SECRET}\n`, 'whole')).toEqual([SECRET]);
    expect(printedSecrets(`Exit code: 0\nWall time: 0.1 seconds\nOutput:\n${SECRET}\n`, 'whole')).toEqual([SECRET]);
    expect(printedSecrets(JSON.stringify({ output: `${SECRET}\n`, metadata: { exit_code: 0 } }), 'whole')).toEqual([SECRET]);
    expect(printedSecrets(`"${SECRET}"`, 'whole')).toEqual([SECRET]);
    // What the agent added after it: Claude Code's note on the shell's folder.
    expect(printedSecrets(`${SECRET}\nShell cwd was reset to /work/shop\n`, 'whole')).toEqual([SECRET]);
    // A tool's log line on its error output before it (kubectl's).
    expect(printedSecrets(`E0115 10:00:00.000000   12345 memcache.go:265] couldn't get current server API group list\n${SECRET}\n`, 'whole')).toEqual([SECRET]);
    // What the tool or the shell says on the way, around it.
    expect(printedSecrets(`Defaulted container "api" out of: api, istio-proxy\n${SECRET}\n`, 'whole')).toEqual([SECRET]);
    expect(printedSecrets(`bash: warning: setlocale: LC_ALL: cannot change locale (en_US.UTF-8)\n${SECRET}\n`, 'whole')).toEqual([SECRET]);
    expect(printedSecrets(`${SECRET}\n\nUpdates are available for some Google Cloud CLI components.  To install them,\nplease run:\n  $ gcloud components update\n`, 'whole')).toEqual([SECRET]);
    // Claude Code's BashOutput, and a Read of a background command's output file.
    expect(printedSecrets(`<status>completed</status>\n\n<exit_code>0</exit_code>\n\n<stdout>\n${SECRET}\n</stdout>\n\n<timestamp>2026-11-02T09:00:00Z</timestamp>`, 'whole')).toEqual([SECRET]);
    expect(printedSecrets(`     1→${SECRET}\n`, 'whole')).toEqual([SECRET]);
    expect(printedSecrets(` ›   Use heroku authorizations:create to generate a long-term token\n${SECRET}\n`, 'whole')).toEqual([SECRET]);
    // set -x echoes the command first: its line goes, and the secret in it with the rest.
    expect(printedSecrets(`+ echo ${SECRET}\n${SECRET}\n`, 'whole')).toEqual([SECRET]);
    expect(printedSecrets(`latest: Pulling from library/alpine\n9824c27679d3: Pull complete\nDigest: sha256:beefdbd8a1da6d2915566fde36db9db0b524eb737fc57cd1367effd16dc0d06d\n${SECRET}\n`, 'whole')).toEqual([SECRET]);
    for (const output of ['2026-11-02T10:00:00Z\n', 'uploads/2024/report.csv\n', 'Error: secret not found\n', 'null\n', '42\n', '', 'your-api-key-here\n', '$API_KEY\n', '/home/ana/.config/gcloud/creds.json\n']) expect(printedSecrets(output, 'whole')).toEqual([]);
  });
});

describe('--share on a secret a command printed alone', () => {
  it('removes it from every file of the report, in Claude Code’s, Codex’s and Pi’s sessions alike, and counts it', async () => {
    const folder = await sessions();
    const shared = await report(folder, ['--share']);
    for (const secret of [SECRET, POLLED, ENCODED, DECODED]) expect([...shared].filter(([, text]) => text.includes(secret)).map(([file]) => file)).toEqual([]);
    const summary = JSON.parse(shared.get('summary.json') as string) as { sharing: { redactions: Record<string, number> } };
    // Nine outputs, two quotes of the first secret, and the base64 twice in the decoding call (its arguments and its command).
    expect(summary.sharing.redactions['printed-secret']).toBe(13);
    expect([...shared.values()].some((text) => text.includes('Connect with psql -U postgres to postgresql.'))).toBe(true);
    // The agent's reply that quotes it, before and after the output, loses it too.
    expect([...shared.values()].some((text) => text.includes('Before: [REDACTED:printed-secret]'))).toBe(true);
    // The commands stay, and so does an output no command printed as a secret.
    expect([...shared.values()].some((text) => text.includes('echo $DEPLOY_TOKEN'))).toBe(true);
    expect([...shared.values()].some((text) => text.includes('a1b2c3d4e5f6g7h8'))).toBe(true);
  });

  it('follows a command run in the background, takes only whole words, and keeps the project whole', async () => {
    const folder = await tempDir('bough-printed-more-');
    const id = '0b1c2d3e-0000-4000-8000-0000000000b2';
    let second = 0;
    let parent: string | null = null;
    const lines: unknown[] = [];
    const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    const line = (type: string, message: unknown) => {
      const uuid = `m${++second}`;
      lines.push({ type, uuid, parentUuid: parent, sessionId: id, cwd: '/work/shop2024', version: '2.0.0', timestamp: new Date(Date.UTC(2026, 10, 5, 9, 0, second)).toISOString(), message });
      parent = uuid;
    };
    const call = (toolId: string, name: string, input: unknown, output: string) => {
      line('assistant', { id: `msg_${toolId}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: toolId, name, input }], usage });
      line('user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolId, content: output }] });
    };
    line('user', { role: 'user', content: 'set things up' });
    // A command in the background, read later by its id.
    call('t1', 'Bash', { command: 'echo $DEPLOY_TOKEN', run_in_background: true }, 'Command running in background with ID: 7d95c5');
    call('t2', 'BashOutput', { bash_id: '7d95c5' }, `<status>completed</status>\n\n<exit_code>0</exit_code>\n\n<stdout>\n${POLLED}\n</stdout>`);
    // Nine random keys: more than are looked for one by one.
    const keys = Array.from({ length: 9 }, (_, k) => `${k}f3a9c2d1e8b7a6c5d4e3f2a1b0c9d8e`);
    keys.forEach((key, k) => call(`r${k}`, 'Bash', { command: 'openssl rand -hex 16' }, `${key}\n`));
    // A password that is also the project's folder's name.
    call('t3', 'Bash', { command: 'echo $DB_PASSWORD' }, 'shop2024\n');
    line('assistant', { id: 'msg_end', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: `Made rg-shop-${keys[0]} with key ${keys[0]}, and ${keys[8]}; token ${POLLED}.` }], usage });
    await mkdir(join(folder, 'claude', '-work-shop2024'), { recursive: true });
    await writeFile(join(folder, 'claude', '-work-shop2024', `${id}.jsonl`), jsonLines(lines));

    const shared = await report(folder, ['--share']);
    const page = [...shared].find(([file]) => file.startsWith('sessions/'))?.[1] ?? '';
    expect(page).not.toContain(POLLED);
    expect(page).toContain(`Made rg-shop-${keys[0]} with key [REDACTED:printed-secret], and [REDACTED:printed-secret]; token [REDACTED:printed-secret].`);
    for (const key of keys) expect(page).not.toContain(`${key}\n`);
    const summary = JSON.parse(shared.get('summary.json') as string) as { projects: unknown[]; sharing: { redactions: Record<string, number> } };
    expect(summary.projects).toHaveLength(1);
    expect([...shared.keys()].filter((file) => file.startsWith('projects/'))).toEqual([expect.stringMatching(/^projects\/shop2024-[0-9a-f]+\.html$/)]);
  });

  it('changes nothing without it', async () => {
    const plain = await report(await sessions(), []);
    for (const secret of [SECRET, POLLED, ENCODED, DECODED]) expect([...plain.values()].some((text) => text.includes(secret))).toBe(true);
  });
});

/** One session of each agent: a shell call that prints the secret alone (and in Claude Code's, the user's own command too, and a call that prints a word of git's). */
async function sessions(): Promise<string> {
  const folder = await tempDir('bough-printed-');
  const claudeId = '0b1c2d3e-0000-4000-8000-0000000000a1';
  const claudeLine = (type: string, uuid: string, parentUuid: string | null, message: unknown) => ({ type, uuid, parentUuid, sessionId: claudeId, cwd: '/work/shop', version: '2.0.0', timestamp: `2026-11-02T09:00:0${uuid.at(-1)}.000Z`, message });
  const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  const claude = [
    claudeLine('user', 'c1', null, { role: 'user', content: `Before: ${SECRET} is it the token?` }),
    claudeLine('assistant', 'c2', 'c1', { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'echo $DEPLOY_TOKEN' } }], usage }),
    claudeLine('user', 'c3', 'c2', { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: `${SECRET}\n` }] }),
    claudeLine('assistant', 'c4', 'c3', { id: 'msg_2', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'git rev-parse --short=16 HEAD' } }], usage }),
    claudeLine('user', 'c5', 'c4', { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'a1b2c3d4e5f6g7h8\n' }] }),
    // The user's own command, in Claude Code's bash mode (`!printenv DEPLOY_TOKEN`).
    claudeLine('user', 'c6', 'c5', { role: 'user', content: '<bash-input>printenv DEPLOY_TOKEN</bash-input>' }),
    claudeLine('user', 'c7', 'c6', { role: 'user', content: `<bash-stdout>${SECRET}</bash-stdout><bash-stderr></bash-stderr>` }),
    claudeLine('assistant', 'c8', 'c7', { id: 'msg_3', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: `The token ${SECRET} is set.` }], usage }),
  ];
  await mkdir(join(folder, 'claude', '-work-shop'), { recursive: true });
  await writeFile(join(folder, 'claude', '-work-shop', `${claudeId}.jsonl`), jsonLines(claude));

  const codexId = '0195cccc-0000-7000-8000-0000000000e1';
  const at = (second: number) => `2026-11-03T09:00:0${second}.000Z`;
  const codex = [
    { timestamp: at(0), type: 'session_meta', payload: { id: codexId, timestamp: at(0), cwd: '/work/shop', originator: 'codex_cli_rs', cli_version: '0.125.0' } },
    { timestamp: at(1), type: 'turn_context', payload: { cwd: '/work/shop', model: 'gpt-5' } },
    { timestamp: at(2), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'check the token' }] } },
    { timestamp: at(3), type: 'response_item', payload: { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', 'printenv DEPLOY_TOKEN'] }) } },
    { timestamp: at(4), type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_1', output: JSON.stringify({ output: `${SECRET}\n`, metadata: { exit_code: 0, duration_seconds: 0.1 } }) } },
    // A command still running when exec_command returned prints with a later write_stdin to it.
    { timestamp: at(5), type: 'response_item', payload: { type: 'function_call', call_id: 'call_2', name: 'exec_command', arguments: JSON.stringify({ cmd: 'vault kv get -field=password secret/db', yield_time_ms: 1000 }) } },
    { timestamp: at(6), type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_2', output: 'Chunk ID: 1a\nWall time: 1.0 seconds\nProcess running with session ID 7\nOriginal token count: 0\nOutput:\n' } },
    { timestamp: at(7), type: 'response_item', payload: { type: 'function_call', call_id: 'call_3', name: 'write_stdin', arguments: JSON.stringify({ session_id: 7, chars: '' }) } },
    { timestamp: at(8), type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_3', output: `Chunk ID: 1b\nWall time: 0.5 seconds\nProcess exited with code 0\nOriginal token count: 5\nOutput:\n${POLLED}\n` } },
    // A secret printed in base64, then decoded by a command that quotes it.
    { timestamp: at(9), type: 'response_item', payload: { type: 'function_call', call_id: 'call_4', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', "kubectl get secret db -o jsonpath='{.data.password}'"] }) } },
    { timestamp: at(9), type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_4', output: JSON.stringify({ output: ENCODED, metadata: { exit_code: 0, duration_seconds: 0.1 } }) } },
    { timestamp: at(9), type: 'response_item', payload: { type: 'function_call', call_id: 'call_5', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', `echo ${ENCODED} | base64 -d`] }) } },
    { timestamp: at(9), type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_5', output: JSON.stringify({ output: DECODED, metadata: { exit_code: 0, duration_seconds: 0.1 } }) } },
  ];
  await writeFile(join(folder, `rollout-2026-11-03T09-00-00-${codexId}.jsonl`), jsonLines(codex));

  const piTime = (second: number) => `2026-11-04T09:00:0${second}.000Z`;
  const pi = [
    { type: 'session', version: 3, id: '0196a000-0000-7000-8000-0000000000f1', timestamp: piTime(0), cwd: '/work/shop' },
    { type: 'message', id: 'p1', parentId: null, timestamp: piTime(1), message: { role: 'user', content: [{ type: 'text', text: 'check the token' }], timestamp: 0 } },
    { type: 'message', id: 'p2', parentId: 'p1', timestamp: piTime(2), message: { role: 'assistant', content: [{ type: 'toolCall', id: 'tc1', name: 'bash', arguments: { command: `python3 -c "import os; print(os.environ['DEPLOY_TOKEN'])"` } }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 }, stopReason: 'toolUse', timestamp: 0 } },
    { type: 'message', id: 'p3', parentId: 'p2', timestamp: piTime(3), message: { role: 'toolResult', toolCallId: 'tc1', toolName: 'bash', content: [{ type: 'text', text: SECRET }], isError: false, timestamp: 0 } },
    // A password that is a word: taken from its output, not from every text that says the word.
    { type: 'message', id: 'p4', parentId: 'p3', timestamp: piTime(4), message: { role: 'assistant', content: [{ type: 'toolCall', id: 'tc2', name: 'bash', arguments: { command: 'echo $DB_PASSWORD' } }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 }, stopReason: 'toolUse', timestamp: 0 } },
    { type: 'message', id: 'p5', parentId: 'p4', timestamp: piTime(5), message: { role: 'toolResult', toolCallId: 'tc2', toolName: 'bash', content: [{ type: 'text', text: 'postgres\n' }], isError: false, timestamp: 0 } },
    { type: 'message', id: 'p6', parentId: 'p5', timestamp: piTime(6), message: { role: 'assistant', content: [{ type: 'text', text: 'Connect with psql -U postgres to postgresql.' }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 }, stopReason: 'stop', timestamp: 0 } },
  ];
  await writeFile(join(folder, '2026-11-04T09-00-00-000Z_0196a000-0000-7000-8000-0000000000f1.jsonl'), jsonLines(pi));
  return folder;
}

function jsonLines(lines: readonly unknown[]): string {
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}

/** Every file of the report built from the folder, the archive's compressed ledgers as text. */
async function report(folder: string, flags: readonly string[]): Promise<Map<string, string>> {
  const outDir = join(await tempDir('bough-printed-report-'), 'report');
  let stderr = '';
  const io: CliIo = { stdout: () => undefined, stderr: (t) => (stderr += t), env: {}, home: HOME, isTty: false, now: () => NOW };
  expect(await main(['build', folder, ...flags, '--no-cache', '--out', outDir, '--tz', 'UTC'], io), stderr).toBe(0);
  const files = new Map<string, string>();
  for (const entry of await readdir(outDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const bytes = await readFile(path);
    files.set(path.slice(outDir.length + 1), (entry.name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'));
  }
  expect(stderr).not.toContain('skipped');
  return files;
}
