import { describe, expect, test } from "bun:test";
import { installCommands, isLoopbackUrl, parseInterval, shellQuote, sortTargets, targetId, TOKEN_PLACEHOLDER, type DownloadTarget } from "./commands";

const origin = "https://vigil.example.com";
const linuxX64 = { os: "linux", file: "vigil-agent-linux-x64", xz: null } as const;
const linuxX64Xz = { ...linuxX64, xz: { file: "vigil-agent-linux-x64.xz", bytes: 38_000_000 } };

describe("installCommands", () => {
  test("Linux: a compressed download + chmod, register with server and token, run with the interval, the installer", () => {
    const c = installCommands({ origin, target: linuxX64, token: "vgl_reg_abc", interval: 10 });
    expect(c.download).toBe("curl -fsSL --compressed -o vigil-agent https://vigil.example.com/downloads/vigil-agent-linux-x64 && chmod +x vigil-agent");
    expect(c.downloadUrl).toBe("https://vigil.example.com/downloads/vigil-agent-linux-x64");
    expect(c.register).toBe("./vigil-agent register --server https://vigil.example.com --token vgl_reg_abc");
    expect(c.run).toBe("./vigil-agent run --interval 10");
    expect(c.install).toBe("curl -fsSL https://vigil.example.com/install.sh | sudo sh -s -- --token vgl_reg_abc --interval 10");
  });

  test("Linux with an xz copy on offer: the xz download, unpacked in place, and the gzip one for a machine without xz", () => {
    const c = installCommands({ origin, target: linuxX64Xz, token: "t", interval: 10 });
    expect(c.download).toBe(
      "curl -fsSL -o vigil-agent.xz https://vigil.example.com/downloads/vigil-agent-linux-x64.xz && xz -df vigil-agent.xz && chmod +x vigil-agent",
    );
    expect(c.downloadWithoutXz).toBe("curl -fsSL --compressed -o vigil-agent https://vigil.example.com/downloads/vigil-agent-linux-x64 && chmod +x vigil-agent");
    // The browser link stays the binary itself (browsers take gzip on their own).
    expect(c.downloadUrl).toBe("https://vigil.example.com/downloads/vigil-agent-linux-x64");
    expect(installCommands({ origin, target: linuxX64, token: "t", interval: 10 }).downloadWithoutXz).toBeNull();
  });

  test("arm64 and macOS download the file the server named; the interval follows the input", () => {
    expect(installCommands({ origin, target: { os: "linux", file: "vigil-agent-linux-arm64", xz: null }, token: "t", interval: 5 }).download).toContain(
      "/downloads/vigil-agent-linux-arm64 &&",
    );
    const mac = installCommands({ origin, target: { os: "darwin", file: "vigil-agent-darwin-arm64", xz: null }, token: "t", interval: 60 });
    expect(mac.download).toBe("curl -fsSL --compressed -o vigil-agent https://vigil.example.com/downloads/vigil-agent-darwin-arm64 && chmod +x vigil-agent");
    expect(mac.run).toBe("./vigil-agent run --interval 60");
  });

  test("Windows: curl.exe without --compressed (no zlib in Windows' curl), an .exe, no chmod, PowerShell paths", () => {
    const c = installCommands({ origin: "http://10.0.0.5:3000/", target: { os: "windows", file: "vigil-agent-windows-x64.exe", xz: null }, token: "t1", interval: 30 });
    expect(c.download).toBe("curl.exe -fsSL -o vigil-agent.exe http://10.0.0.5:3000/downloads/vigil-agent-windows-x64.exe");
    expect(c.register).toBe(".\\vigil-agent.exe register --server http://10.0.0.5:3000 --token t1");
    expect(c.run).toBe(".\\vigil-agent.exe run --interval 30");
  });

  test("without a build on offer there is no download; the other commands are the POSIX ones", () => {
    const c = installCommands({ origin, target: null, token: "t", interval: 10 });
    expect(c.download).toBeNull();
    expect(c.downloadWithoutXz).toBeNull();
    expect(c.downloadUrl).toBeNull();
    expect(c.register).toBe("./vigil-agent register --server https://vigil.example.com --token t");
  });

  test("without a token the commands show a placeholder", () => {
    const c = installCommands({ origin, target: linuxX64, token: null, interval: 10 });
    expect(c.register).toContain(`--token '${TOKEN_PLACEHOLDER}'`);
    expect(c.install).toContain(`--token '${TOKEN_PLACEHOLDER}'`);
  });
});

test("sortTargets: Linux x64 first, then arm64, macOS, Windows, whatever the server's order", () => {
  const t = (os: DownloadTarget["os"], arch: DownloadTarget["arch"]) => ({ os, arch });
  const sorted = sortTargets([t("windows", "x64"), t("darwin", "arm64"), t("linux", "arm64"), t("darwin", "x64"), t("linux", "x64")]);
  expect(sorted.map(targetId)).toEqual(["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"]);
  expect(sortTargets([])).toEqual([]);
});

test("isLoopbackUrl: localhost, 127.0.0.0/8 and ::1 are loopback; network addresses are not", () => {
  for (const url of ["http://localhost:3000", "http://LOCALHOST", "http://vigil.localhost:8080", "http://127.0.0.1:3000", "http://127.1.2.3", "http://[::1]:3000", "http://[::ffff:127.0.0.1]:3000"]) {
    expect({ url, loopback: isLoopbackUrl(url) }).toEqual({ url, loopback: true });
  }
  for (const url of ["http://192.168.1.10:3000", "https://vigil.example.com", "http://10.0.0.5", "http://[2001:db8::1]", "http://128.0.0.1", "http://localhost.example.com", "not a url"]) {
    expect({ url, loopback: isLoopbackUrl(url) }).toEqual({ url, loopback: false });
  }
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
