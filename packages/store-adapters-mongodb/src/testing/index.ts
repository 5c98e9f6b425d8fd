export { FakeMongo, type RecordedCommand } from "./fake-mongodb.js";
