/**
 * A stand-in for block explorers' verification APIs, on 127.0.0.1: Etherscan-style
 * (`/etherscan/api`), Blockscout (`/blockscout/api`, the same API) and Sourcify (`/sourcify/v2/...`).
 * It accepts every submission and records what hardhat-verify sent, so a test can check that the
 * submitted standard-JSON input really compiles to the code on chain — the part a real explorer
 * decides on.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Submission {
  explorer: "etherscan" | "blockscout" | "sourcify";
  address: string;
  /** Standard-JSON compiler input, parsed. */
  input: unknown;
  contractName: string;
  compilerVersion: string;
  /** ABI-encoded constructor arguments without 0x (Etherscan-style APIs only). */
  constructorArguments?: string;
}

export interface FakeExplorer {
  url: string;
  submissions: Submission[];
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function etherscanStyle(
  explorer: "etherscan" | "blockscout",
  url: URL,
  body: string,
  res: ServerResponse,
  submissions: Submission[],
): void {
  const form = new URLSearchParams(body);
  const action = url.searchParams.get("action") ?? form.get("action");
  if (action === "getsourcecode") {
    send(res, 200, { status: "1", message: "OK", result: [{ SourceCode: "" }] });
  } else if (action === "verifysourcecode") {
    submissions.push({
      explorer,
      address: form.get("contractaddress") ?? "",
      input: JSON.parse(form.get("sourceCode") ?? "null"),
      contractName: form.get("contractname") ?? "",
      compilerVersion: form.get("compilerversion") ?? "",
      constructorArguments:
        form.get("constructorArguements") ?? form.get("constructorArguments") ?? "",
    });
    send(res, 200, { status: "1", message: "OK", result: `${explorer}-guid` });
  } else if (action === "checkverifystatus") {
    send(res, 200, { status: "1", message: "OK", result: "Pass - Verified" });
  } else {
    send(res, 200, { status: "0", message: "NOTOK", result: `unexpected action ${action}` });
  }
}

function sourcify(
  url: URL,
  method: string,
  body: string,
  res: ServerResponse,
  submissions: Submission[],
) {
  const lookup = /^\/sourcify\/v2\/contract\/(\d+)\/(0x[0-9a-fA-F]{40})$/.exec(url.pathname);
  if (method === "GET" && lookup) {
    const [, chainId, address] = lookup;
    // Unverified: Sourcify answers 404 with an empty match.
    return send(res, 404, {
      match: null,
      creationMatch: null,
      runtimeMatch: null,
      chainId,
      address,
    });
  }
  const verify = /^\/sourcify\/v2\/verify\/(\d+)\/(0x[0-9a-fA-F]{40})$/.exec(url.pathname);
  if (method === "POST" && verify) {
    const request = JSON.parse(body) as {
      stdJsonInput: unknown;
      contractIdentifier: string;
      compilerVersion: string;
    };
    submissions.push({
      explorer: "sourcify",
      address: verify[2] ?? "",
      input: request.stdJsonInput,
      contractName: request.contractIdentifier,
      compilerVersion: request.compilerVersion,
    });
    return send(res, 202, { verificationId: "sourcify-job" });
  }
  if (method === "GET" && url.pathname === "/sourcify/v2/verify/sourcify-job") {
    return send(res, 200, {
      isJobCompleted: true,
      verificationId: "sourcify-job",
      jobStartTime: new Date().toISOString(),
      contract: { match: "exact_match", creationMatch: "exact_match", runtimeMatch: "exact_match" },
    });
  }
  send(res, 404, {
    customCode: "not_found",
    message: `unexpected ${method} ${url.pathname}`,
    errorId: "x",
  });
}

export async function startFakeExplorer(): Promise<FakeExplorer> {
  const submissions: Submission[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname.startsWith("/etherscan/")) {
        etherscanStyle("etherscan", url, body, res, submissions);
      } else if (url.pathname.startsWith("/blockscout/")) {
        etherscanStyle("blockscout", url, body, res, submissions);
      } else if (url.pathname.startsWith("/sourcify/")) {
        sourcify(url, req.method ?? "GET", body, res, submissions);
      } else {
        send(res, 404, { message: "not found" });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    submissions,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
