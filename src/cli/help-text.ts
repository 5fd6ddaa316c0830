/**
 * What `cadre COMMAND --help` shows after the options: examples, and the
 * environment variables the command reads. Kept beside the program so a new
 * variable is documented where the commands are.
 */

const MODEL_KEYS =
  'GEMINI_API_KEY / GOOGLE_API_KEY, GOOGLE_GEMINI_BASE_URL, OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, OLLAMA_BASE_URL';
const MODEL = `CADRE_MODEL (model when none is named), ${MODEL_KEYS}`;
const POLICY = 'CADRE_POLICY (policy file), CADRE_TRUST, CADRE_SIDE_EFFECTS';
const TOOLS =
  'CADRE_SHELL_ENV, CADRE_SANDBOX, CADRE_SANDBOX_NETWORK, CADRE_SANDBOX_READ, CADRE_SANDBOX_HIDE, CADRE_FETCH_ALLOW, BRAVE_API_KEY (web_search)';
const FOLDERS = 'HOME (~/.cadre/agents, ~/.cadre/tools)';
const STORE = 'CADRE_DATABASE_URL (default .cadre/cadre.db)';
const SERVER = `${STORE}, CADRE_AUDIT_KEY, CADRE_LOG_LEVEL, CADRE_LOG_FORMAT, CADRE_LEASE_MS, CADRE_POLL_MS, CADRE_STORE_AFTER_MS, ACTIVE_AGENT_PATH, CADRE_SMTP_URL / GMAIL_* and CADRE_MAIL_FROM (gmail_send), CADRE_CALDAV_* (calendar_event_create)`;
const HTTP =
  'CADRE_RATE_LIMIT, CADRE_AUTH_FAILURE_LIMIT, CADRE_TRUST_PROXY, CADRE_REQUEST_TIMEOUT_MS, CADRE_HEADERS_TIMEOUT_MS, CADRE_KEEP_ALIVE_TIMEOUT_MS, CADRE_MAX_REQUESTS_PER_SOCKET';
const TRUST =
  'CADRE_TRUST_FILE (where trust is recorded; default $XDG_CONFIG_HOME/cadre/trust.json, else ~/.config/cadre/trust.json)';
const TRACES = 'OTEL_EXPORTER_OTLP_ENDPOINT (traces), CADRE_PRICES, NO_COLOR';

interface CommandHelp {
  examples: string[];
  env: string[];
}

const HELP: Readonly<Record<string, CommandHelp>> = {
  init: {
    examples: ['cadre init', 'cadre init my-agents'],
    env: [],
  },
  run: {
    examples: [
      'cadre run agents/summarizer.yaml --input path=README.md',
      'cadre run helper "How many words are in README.md?"',
      'cadre run examples/agents/codebase-investigator.yaml --model scripted:examples/scripts/investigator-turns.json --input objective="Where is the loop?"',
      'cadre run agents/writer.yaml "Fix the typo" --approve write_file --record .cadre/runs/fix.json',
    ],
    env: [MODEL, POLICY, TOOLS, FOLDERS, TRACES],
  },
  chat: {
    examples: ['cadre chat', 'cadre chat helper --model openai:gpt-4.1'],
    env: ['ACTIVE_AGENT_PATH (default agent)', MODEL, POLICY, TOOLS, FOLDERS, TRACES],
  },
  validate: {
    examples: ['cadre validate agents', 'cadre validate --strict agents/helper.yaml'],
    env: [FOLDERS, 'BRAVE_API_KEY (web_search is known)', 'ANTHROPIC_API_KEY (Claude model names)'],
  },
  agents: { examples: ['cadre agents', 'cadre agents examples/agents'], env: [FOLDERS] },
  tools: { examples: ['cadre tools', 'cadre tools --json'], env: [FOLDERS, 'BRAVE_API_KEY'] },
  schema: { examples: ['cadre schema > agent.schema.json'], env: [] },
  trust: {
    examples: [
      'cadre trust --list',
      'cadre trust',
      'cadre trust tools/word-count.tool.ts',
      'cadre trust --revoke',
    ],
    env: [TRUST],
  },
  replay: {
    examples: [
      'cadre replay .cadre/runs/fix.json',
      'cadre replay .cadre/runs/fix.json --until 2 --model gemini-2.5-flash',
    ],
    env: [MODEL, TOOLS],
  },
  eval: {
    examples: ['cadre eval agents/helper.yaml --dataset evals/helper.jsonl --scorer contains'],
    env: [MODEL, TOOLS, 'CADRE_PRICES'],
  },
  mcp: {
    examples: ['cadre mcp', 'cadre mcp --workspace ~/src/project --approve write_file'],
    env: [MODEL, POLICY, TOOLS, FOLDERS],
  },
  serve: {
    examples: ['cadre serve', 'cadre serve --port 0 --model gemini-2.5-flash --no-worker'],
    env: [SERVER, HTTP, MODEL, POLICY, TOOLS, FOLDERS, TRACES],
  },
  worker: {
    examples: ['cadre worker --db postgres://cadre@127.0.0.1/cadre'],
    env: [SERVER, MODEL, POLICY, TOOLS, FOLDERS, TRACES],
  },
  token: {
    examples: ['cadre token create --user ana@example.com', 'cadre token list --json'],
    env: [STORE],
  },
  audit: {
    examples: ['cadre audit verify', 'cadre audit export --out audit.ndjson'],
    env: [STORE, 'CADRE_AUDIT_KEY (else .cadre/audit.key)'],
  },
  completion: {
    examples: [
      'cadre completion bash >> ~/.bashrc',
      'cadre completion zsh > "${fpath[1]}/_cadre"',
      'cadre completion fish > ~/.config/fish/completions/cadre.fish',
    ],
    env: [],
  },
};

/** The text after a command's options, or undefined for a command with none. */
export function helpAfter(command: string): string | undefined {
  const help = HELP[command];
  if (!help) return undefined;
  const lines = ['', 'Examples:', ...help.examples.map((example) => `  $ ${example}`)];
  if (help.env.length > 0) lines.push('', 'Environment:', ...help.env.map((entry) => `  ${entry}`));
  return lines.join('\n');
}
