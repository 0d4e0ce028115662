// Writes the golden decode fixture for MoonshineTokenizerTest: id sequences and what the real
// llama-tokenizer-js@1.2.2 decode() (the decoder moonshine-js uses) makes of them, one JSON object a line.
//
// Rerun (needs node >= 18 and npm):
//   cd /tmp && npm pack llama-tokenizer-js@1.2.2 && mkdir -p llama-tok && tar xzf llama-tokenizer-js-1.2.2.tgz -C llama-tok
//   node scripts/moonshine-tokenizer-fixture.mjs /tmp/llama-tok/package/llama-tokenizer.js \
//     > models/src/test/resources/moonshine/llama-tokenizer-js-decode.jsonl
//
// The sequences are seeded, so a rerun writes the same file. Two things are kept out on purpose, as the
// Java decoder differs there by design (see MoonshineTokenizer's javadoc): special tokens after the
// first position (llama-tokenizer-js spells them out as "<s>", "</s>", "<unk>"; the Java decoder drops
// them), and byte streams that begin with a byte-order mark (TextDecoder silently drops it).
import { pathToFileURL } from 'node:url';

const file = process.argv[2];
if (!file) {
    console.error('usage: node moonshine-tokenizer-fixture.mjs <path to llama-tokenizer-js@1.2.2 package/llama-tokenizer.js>');
    process.exit(2);
}
const tokenizer = (await import(pathToFileURL(file).href)).default;
const VOCAB = tokenizer.vocabById.length;
if (VOCAB !== 32000) throw new Error(`expected 32000 tokens, ${file} has ${VOCAB}`);

// mulberry32: a tiny seeded generator, so the fixture does not change between runs
let state = 20240601;
function random() {
    state = (state + 0x6D2B79F5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const between = (lo, hi) => lo + Math.floor(random() * (hi - lo)); // [lo, hi)

const BYTE = (b) => 3 + b;      // <0x00> is id 3
const SPACE = 29871;            // "▁"
const BOS = 1;
const bytes = (...bs) => bs.map(BYTE);
const utf8 = (s) => Array.from(new TextEncoder().encode(s), BYTE);

const cases = [];
function add(note, ids) { cases.push({ note, ids }); }

// hand-made cases: spaces, specials at the start, byte fallback, broken UTF-8
add('empty', []);
add('BOS only', [BOS]);
add('BOS then a word', [BOS, tokenizer.encode('hello', false)].flat());
add('leading BOS is the only special that is skipped; none in the middle', [BOS, SPACE, SPACE]);
add('a lone space token', [SPACE]);
add('two space tokens', [SPACE, SPACE]);
add('the double-space token', [259]);
add('leading and trailing spaces', [SPACE, ...tokenizer.encode('word', false, false), SPACE]);
add('no leading space to remove', tokenizer.encode('word', false, false));
add('é from bytes', [SPACE, ...utf8('é')]);
add('日本 from bytes', [SPACE, ...utf8('日本')]);
add('emoji from bytes', [BOS, SPACE, ...utf8('😀'), SPACE, ...utf8('🎉')]);
add('mixed bytes and tokens', [BOS, ...tokenizer.encode('caf', false), ...utf8('é'), SPACE, ...utf8('日本'), ...tokenizer.encode(' ok', false, false)]);
add('newline and tab bytes', [BOS, ...tokenizer.encode('a', false), BYTE(0x0A), BYTE(0x09), ...tokenizer.encode('b', false, false)]);
add('▁ spelled in bytes becomes a space too', [BOS, ...tokenizer.encode('x', false), ...bytes(0xE2, 0x96, 0x81), ...tokenizer.encode('y', false, false)]);
add('lone lead byte', [SPACE, ...bytes(0xC3)]);
add('lone continuation byte', [SPACE, ...bytes(0x80), ...tokenizer.encode('a', false, false)]);
add('truncated three-byte sequence then ASCII', [SPACE, ...bytes(0xE6, 0x97, 0x41)]);
add('truncated four-byte sequence at the end', [SPACE, ...bytes(0xF0, 0x9F, 0x98)]);
add('encoded surrogate', [SPACE, ...bytes(0xED, 0xA0, 0x80)]);
add('overlong NUL', [SPACE, ...bytes(0xC0, 0x80)]);
add('overlong three-byte', [SPACE, ...bytes(0xE0, 0x80, 0xAF)]);
add('beyond U+10FFFF', [SPACE, ...bytes(0xF4, 0x90, 0x80, 0x80)]);
add('FF and FE', [SPACE, ...bytes(0xFF, 0xFE, 0x41)]);
add('F5 lead', [SPACE, ...bytes(0xF5, 0x80, 0x80, 0x80)]);
add('UTF-8 boundaries that are valid', [SPACE, ...bytes(0xC2, 0x80, 0xDF, 0xBF, 0xE0, 0xA0, 0x80, 0xED, 0x9F, 0xBF, 0xEE, 0x80, 0x80,
    0xEF, 0xBF, 0xBF, 0xF0, 0x90, 0x80, 0x80, 0xF4, 0x8F, 0xBF, 0xBF)]);
add('truncated surrogate', [SPACE, ...bytes(0xED, 0xA0), ...tokenizer.encode('a', false, false)]);
add('last surrogate', [SPACE, ...bytes(0xED, 0xBF, 0xBF)]);
add('overlong four-byte', [SPACE, ...bytes(0xF0, 0x8F, 0xBF, 0xBF)]);
add('C1 lead', [SPACE, ...bytes(0xC1, 0xBF)]);
add('a lead byte cut short by another lead byte', [SPACE, ...bytes(0xE6, 0xC3, 0xA9, 0xF0, 0x9F, 0xE6, 0x97, 0xA5)]);
add('valid then broken then valid', [SPACE, ...utf8('é'), ...bytes(0xE6, 0x97), ...utf8('日'), ...bytes(0xC3)]);
add('BOM in the middle is kept', [SPACE, ...tokenizer.encode('a', false, false), ...bytes(0xEF, 0xBB, 0xBF), ...tokenizer.encode('b', false, false)]);
add('vocabulary tokens that hold U+FFFD and U+FEFF', [SPACE, 26308, 30140, 30143]);
add('the <> token', [SPACE, 25299]);
for (const s of ['Hello world, this is a test.', 'Mr. John Dashwood said: "I\'ll pay 5% more!"',
        'ten of clubs', 'Numbers 1, 22 and 333; dates 2024-06-01.', 'naïve café — déjà vu', 'Здравствуйте, мир',
        '東京は日本の首都です', 'emoji 😀 and 🎉 and 👩‍👩‍👧', '  two leading spaces', 'trailing spaces  ',
        'line one\nline two', 'tab\tseparated']) {
    add('encoded: ' + JSON.stringify(s), tokenizer.encode(s));
}

// random sequences from the whole vocabulary and from the byte tokens alone (mostly broken UTF-8)
// the bytes decode() would hand to TextDecoder: a byte token gives its byte, any other token its UTF-8
function tokenBytes(ids) {
    const out = [];
    for (const id of ids[0] === BOS ? ids.slice(1) : ids) {
        const t = tokenizer.vocabById[id];
        if (t.startsWith('<0x') && t.endsWith('>')) out.push(parseInt(t.slice(3, -1), 16));
        else out.push(...new TextEncoder().encode(t));
    }
    return out;
}
const BOM_START = (ids) => { const b = tokenBytes(ids); return b[0] === 0xEF && b[1] === 0xBB && b[2] === 0xBF; };
function randomSequence(lo, hi, maxLength) {
    for (;;) {
        const ids = [];
        if (random() < 0.5) ids.push(BOS);
        const n = between(1, maxLength + 1);
        for (let i = 0; i < n; i++) ids.push(between(lo, hi));
        if (!BOM_START(ids)) return ids;
    }
}
for (let i = 0; i < 300; i++) add('random vocabulary ids', randomSequence(3, VOCAB, 40));
for (let i = 0; i < 150; i++) add('random byte tokens', randomSequence(3, 259, 12));
for (let i = 0; i < 200; i++) add('random high bytes', randomSequence(3 + 0x80, 259, 8));
// byte tokens mixed with ordinary ones, the way a model that falls back to bytes mid-word would emit them
for (let i = 0; i < 150; i++) {
    const ids = randomSequence(3, VOCAB, 20);
    for (let j = 0; j < ids.length; j++) if (ids[j] !== BOS && random() < 0.4) ids[j] = between(3 + 0x80, 259);
    if (!BOM_START(ids)) add('random ids with high bytes', ids);
}

for (const { note, ids } of cases) {
    if (ids.slice(1).some((id) => id < 3) || (ids.length > 0 && ids[0] !== BOS && ids[0] < 3)) {
        throw new Error(`${note}: specials after the start are outside this fixture`);
    }
    process.stdout.write(JSON.stringify({ note, ids, text: tokenizer.decode(ids) }) + '\n');
}
