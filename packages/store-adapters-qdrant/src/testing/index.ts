export { FakeQdrant, type RecordedRequest } from "./fake-qdrant.js";
