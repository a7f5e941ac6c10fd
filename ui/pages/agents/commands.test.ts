import { describe, expect, test } from "bun:test";
import { AGENT_TARGETS, binaryName, installCommands, parseInterval, shellQuote, TOKEN_PLACEHOLDER } from "./commands";

const origin = "https://vigil.example.com";

describe("installCommands", () => {
  test("Linux: download + chmod, register with server and token, run with the interval, the installer", () => {
    const c = installCommands({ origin, target: "linux-x64", token: "vgl_reg_abc", interval: 10 });
    expect(c.download).toBe("curl -fsSL -o vigil-agent https://vigil.example.com/downloads/vigil-agent-linux-x64 && chmod +x vigil-agent");
    expect(c.register).toBe("./vigil-agent register --server https://vigil.example.com --token vgl_reg_abc");
    expect(c.run).toBe("./vigil-agent run --interval 10");
    expect(c.install).toBe("curl -fsSL https://vigil.example.com/install.sh | sudo sh -s -- --token vgl_reg_abc --interval 10");
  });

  test("arm64 and macOS download their own binary; the interval follows the input", () => {
    expect(installCommands({ origin, target: "linux-arm64", token: "t", interval: 5 }).download).toContain("/downloads/vigil-agent-linux-arm64 &&");
    const mac = installCommands({ origin, target: "darwin-arm64", token: "t", interval: 60 });
    expect(mac.download).toContain("/downloads/vigil-agent-darwin-arm64 && chmod +x vigil-agent");
    expect(mac.run).toBe("./vigil-agent run --interval 60");
  });

  test("Windows: an .exe, no chmod, PowerShell paths", () => {
    const c = installCommands({ origin: "http://10.0.0.5:3000/", target: "windows-x64", token: "t1", interval: 30 });
    expect(c.download).toBe("curl.exe -fsSL -o vigil-agent.exe http://10.0.0.5:3000/downloads/vigil-agent-windows-x64.exe");
    expect(c.register).toBe(".\\vigil-agent.exe register --server http://10.0.0.5:3000 --token t1");
    expect(c.run).toBe(".\\vigil-agent.exe run --interval 30");
  });

  test("without a token the commands show a placeholder", () => {
    const c = installCommands({ origin, target: "linux-x64", token: null, interval: 10 });
    expect(c.register).toContain(`--token '${TOKEN_PLACEHOLDER}'`);
  });
});

test("binaryName: .exe for Windows only", () => {
  expect(AGENT_TARGETS.map(binaryName)).toEqual([
    "vigil-agent-linux-x64",
    "vigil-agent-linux-arm64",
    "vigil-agent-darwin-x64",
    "vigil-agent-darwin-arm64",
    "vigil-agent-windows-x64.exe",
  ]);
});

test("parseInterval accepts whole seconds in 1-3600", () => {
  expect(parseInterval("10")).toBe(10);
  expect(parseInterval(" 1 ")).toBe(1);
  expect(parseInterval("3600")).toBe(3600);
  for (const bad of ["", "0", "3601", "1.5", "-1", "abc", "1e3"]) expect(parseInterval(bad)).toBeNull();
});

test("shellQuote leaves safe words alone and single-quotes the rest", () => {
  expect(shellQuote("https://a.b:3000/x")).toBe("https://a.b:3000/x");
  expect(shellQuote("a b")).toBe("'a b'");
  expect(shellQuote("it's")).toBe("'it'\\''s'");
  expect(shellQuote("$(rm -rf /)")).toBe("'$(rm -rf /)'");
});
