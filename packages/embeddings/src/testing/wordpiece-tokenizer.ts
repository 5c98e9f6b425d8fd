/** BERT's special tokens, in the order test vocabularies start with them. */
export const WORDPIECE_SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] as const;

/**
 * A Hugging Face `tokenizer.json` for `vocab` as transformers.js reads it: BERT uncased normaliser and
 * pre-tokeniser, `[CLS] A [SEP]` / `[CLS] A [SEP] B [SEP]` templates (token types 0 / 1), WordPiece model with
 * `##` continuations. The special tokens must be in `vocab`.
 */
export function wordPieceTokenizerJson(vocab: readonly string[]): object {
  const id = (token: string): number => vocab.indexOf(token);
  const special = (token: string) => ({ id: token, ids: [id(token)], tokens: [token] });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: WORDPIECE_SPECIAL_TOKENS.map((content) => ({ id: id(content), content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [{ SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } }],
      pair: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: { "[CLS]": special("[CLS]"), "[SEP]": special("[SEP]") },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((w, i) => [w, i])),
    },
  };
}
