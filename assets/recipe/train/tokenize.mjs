// Tokenise JSON lines {"text": ...} from stdin with the reference tokenizer (Hugging Face
// tokenizers via @anush008/tokenizers); write one line per input:
// {"ids": [...], "offsets": [[start, end], ...]} with <s>/</s> included. The reference's offsets
// count Unicode code points (checked: an emoji counts 1), i.e. Python str indices.
// usage: node tokenize.mjs path/to/tokenizer.json < in.jsonl > out.jsonl
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import readline from 'node:readline';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../../common/node/package.json'));
const { Tokenizer } = require('@anush008/tokenizers');

const tok = Tokenizer.fromFile(process.argv[2]);
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line.trim()) continue;
  const { text } = JSON.parse(line);
  const enc = await tok.encode(text);
  process.stdout.write(JSON.stringify({ ids: enc.getIds(), offsets: enc.getOffsets() }) + '\n');
}
