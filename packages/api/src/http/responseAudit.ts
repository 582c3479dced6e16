/**
 * Checks an answer against its endpoint's declaration: its status must be one the OpenAPI
 * document lists for the endpoint, and every header it carries must be documented for that
 * status (or be one of HTTP's own). Tests run every request through it, so no handler or
 * middleware can answer something the document does not say.
 */
import { type Answer, answersOf, type EndpointSpec } from "./endpoint.ts";
import { PROTOCOL_HEADERS } from "./responseHeaders.ts";

const answersBySpec = new WeakMap<EndpointSpec, Map<number, Answer>>();

/** What is undocumented about this answer; empty when the document describes it whole. */
export function undocumented(
  spec: EndpointSpec,
  status: number,
  headerNames: readonly string[],
): string[] {
  let answers = answersBySpec.get(spec);
  if (!answers) {
    answers = answersOf(spec);
    answersBySpec.set(spec, answers);
  }
  const where = `${spec.method.toUpperCase()} ${spec.path}`;
  const answer = answers.get(status);
  if (!answer) return [`${where} answered ${status}, which the document does not list`];
  const documented = new Set(answer.headers.map((name) => name.toLowerCase()));
  return headerNames
    .map((name) => name.toLowerCase())
    .filter((name) => !PROTOCOL_HEADERS.has(name) && !documented.has(name))
    .map((name) => `${where} answered ${status} with header ${name}, which the document lacks`);
}
