export { FakeCosmos, execute, type CosmosRequest, type FakeContainer } from "./fake-cosmos.js";
export { parseSelect, evaluate, QueryError, type Expr, type SelectStatement, type EvalContext } from "./cosmos-sql.js";
export { queryPlan, needsPlan, FULL_RANGE } from "./query-plan.js";
