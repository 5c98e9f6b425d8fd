export { FakePinecone, type RecordedRequest } from "./fake-pinecone.js";
