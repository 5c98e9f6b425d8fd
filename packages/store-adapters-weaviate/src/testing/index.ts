export { FakeWeaviate, type RecordedRequest } from "./fake-weaviate.js";
