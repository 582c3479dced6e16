/** Waiting for what the API answers to settle, as a client polling GET would. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back.
type Api = (method: string, urlPath: string) => Promise<{ status: number; body: any }>;

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back.
export async function confirmed(api: Api, urlPath: string, timeoutMs = 120_000): Promise<any> {
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
