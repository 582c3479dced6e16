import {
  CollectiblesApiError,
  createCollectiblesClient,
  listAll,
  unwrap,
} from "@collectibles/client";

const { API = "http://127.0.0.1:3000", KEY = "" } = process.env;
const api = createCollectiblesClient({ baseUrl: API, apiKey: KEY });

const { data: org } = await unwrap(api.POST("/organizations", { body: { name: "Acme" } }));
const { data: ada } = await unwrap(
  api.POST("/users", { body: { organization_id: org.id, email: "ada@example.com", name: "Ada" } }),
);
// Answers once the contract has it and the indexer has seen it, as above.
const { data: rocket } = await unwrap(
  api.POST("/collectibles", {
    body: { organization_id: org.id, name: "Moon Rocket", total_count: 3, creator_id: ada.id },
  }),
);
await unwrap(api.POST("/claims", { body: { collectible_id: rocket.id, holder_id: ada.id } }));
for (const who of ["bob", "carol", "dave"]) {
  try {
    const { data: claim } = await unwrap(
      api.POST("/claims", {
        params: { header: { "idempotency-key": `claim-${who}-${rocket.id}` } },
        body: { collectible_id: rocket.id, email: `${who}@example.com` },
      }),
    );
    console.log(who, claim.status, claim.edition); // bob confirmed 2, carol confirmed 3
  } catch (error) {
    if (!(error instanceof CollectiblesApiError && error.code === "sold_out")) throw error;
    console.log(who, error.status, error.code); // dave 409 sold_out
  }
}
for await (const claim of listAll(api, "/claims", { collectible_id: rocket.id })) {
  console.log(claim.edition, claim.status, claim.holder_wallet_address);
}
