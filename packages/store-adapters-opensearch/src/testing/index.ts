export { FakeOpenSearch, type RecordedRequest } from "./fake-opensearch.js";
