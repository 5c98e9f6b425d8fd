export { writeHostileFixtures, sizesFromEnv, zipBomb, billionLaughs, type Fixture, type FixtureSizes, type Expectation } from "./hostile-fixtures.js";
export { runCli, startCli, peakRss, mb, REPO, BIN, SAMPLE, CORPORA, type CliRun, type CliOptions, type StartedCli } from "./cli-process.js";
