/**
 * A strict parser of the Prometheus text exposition format (version 0.0.4), for tests that read /metrics: every
 * sample must belong to a family declared by `# HELP` and `# TYPE` before it, label names and values must be well
 * formed, values must be numbers. Anything else throws, naming the line.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** Suffixes a sample name may add to its family's name, by family type. */
const SUFFIXES: Record<Family['type'], readonly string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

function parseValue(text: string, line: string): number {
  // Prometheus reads values with Go's ParseFloat: NaN and Inf in any letter case (prom-client writes `Nan`).
  if (/^\+?inf$/i.test(text)) return Number.POSITIVE_INFINITY;
  if (/^-inf$/i.test(text)) return Number.NEGATIVE_INFINITY;
  if (/^nan$/i.test(text)) return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`not a number in: ${line}`);
  return Number(text);
}

/** `{a="x",b="y\"z"}` → { a: 'x', b: 'y"z' }, with the format's escapes (\\, \", \n). */
function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`bad labels in: ${line}`);
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name)) throw new Error(`bad label name "${name}" in: ${line}`);
    if (name in labels) throw new Error(`label "${name}" twice in: ${line}`);
    if (text[eq + 1] !== '"') throw new Error(`unquoted label value in: ${line}`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === '\\') {
        const next = text[++j];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`bad escape in: ${line}`);
      } else value += text[j];
    }
    if (j >= text.length) throw new Error(`unterminated label value in: ${line}`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i += 1;
    else if (i < text.length) throw new Error(`bad label separator in: ${line}`);
  }
  return labels;
}

/** Every family of a /metrics answer, by name. */
export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const declared = new Map<string, { help?: string; type?: Family['type'] }>();
  const familyOf = (sampleName: string, line: string): Family => {
    for (const family of families.values()) {
      for (const suffix of SUFFIXES[family.type]) if (`${family.name}${suffix}` === sampleName) return family;
    }
    throw new Error(`sample of an undeclared family: ${line}`);
  };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const match = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!match) continue; // a plain comment
      const [, keyword, name, rest] = match as unknown as [string, 'HELP' | 'TYPE', string, string];
      if (!METRIC_NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
      const entry = declared.get(name) ?? {};
      if (keyword === 'HELP') entry.help = rest;
      else {
        if (!TYPES.has(rest)) throw new Error(`unknown type in: ${line}`);
        if (families.has(name)) throw new Error(`family declared twice: ${line}`);
        entry.type = rest as Family['type'];
        families.set(name, { name, help: entry.help ?? '', type: entry.type, samples: [] });
      }
      declared.set(name, entry);
      continue;
    }
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: -?\d+)?$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const [, name, labelText, valueText] = match as unknown as [string, string, string | undefined, string];
    familyOf(name, line).samples.push({
      name,
      labels: labelText ? parseLabels(labelText, line) : {},
      value: parseValue(valueText, line),
    });
  }
  return families;
}

/** The value of the one sample named `name` whose labels include `labels`; 0 when there is none (not counted yet). */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const base = name.replace(/_(bucket|sum|count)$/, '');
  const family = families.get(name) ?? families.get(base);
  if (!family) throw new Error(`no family ${name}`);
  const matching = family.samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (matching.length > 1) throw new Error(`${matching.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return matching[0]?.value ?? 0;
}
