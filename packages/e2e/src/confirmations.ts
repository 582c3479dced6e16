/** Waiting for what the API answers to settle, as a client polling GET would. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back.
type Json = any;
type Api = (
  method: string,
  urlPath: string,
  json?: unknown,
) => Promise<{ status: number; body: Json }>;

export async function confirmed(api: Api, urlPath: string, timeoutMs = 120_000): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api("GET", urlPath);
    if (res.body?.data?.status === "confirmed") return res.body.data;
    if (res.body?.data?.status === "failed")
      throw new Error(`${urlPath} failed: ${JSON.stringify(res.body)}`);
    if (Date.now() > deadline)
      throw new Error(`${urlPath} not confirmed: ${JSON.stringify(res.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A new organization, and in it a collectible of `totalCount` editions, once it is confirmed. */
export async function confirmedCollectible(
  api: Api,
  organizationName: string,
  name: string,
  totalCount: number,
): Promise<{ org: Json; collectible: Json }> {
  const org = (await api("POST", "/organizations", { name: organizationName })).body.data;
  const created = await api("POST", "/collectibles", {
    organization_id: org.id,
    name,
    total_count: totalCount,
  });
  return { org, collectible: await confirmed(api, `/collectibles/${created.body.data.id}`) };
}
