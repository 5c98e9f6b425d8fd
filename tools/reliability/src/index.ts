export { writeHostileFixtures, sizesFromEnv, zipBomb, billionLaughs, type Fixture, type FixtureSizes, type Expectation } from "./hostile-fixtures.js";
export { runCli, startCli, stopAllClis, peakRss, mb, REPO, BIN, SAMPLE, CORPORA, type CliRun, type CliOptions, type StartedCli } from "./cli-process.js";
export { prng, actText, actFile, writeCorpus, mutateCorpus, type CorpusState } from "./generated-corpus.js";
export { checkIndexFolder, fileHash, type IndexCheck, type IndexCheckOptions } from "./index-check.js";
