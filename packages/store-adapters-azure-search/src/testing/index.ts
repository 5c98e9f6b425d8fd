export { FakeAzureSearch, parseFilter, type RecordedRequest } from "./fake-azure-search.js";
