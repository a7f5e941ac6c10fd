// Kuma's columns → the later types' settings objects, for the variants the sample database does not hold; each
// mapped monitor also passes the type's own validation (as the import runs it), so a field name Vigil does not
// have would fail here.
import { describe, expect, test } from "bun:test";
import { resolveFields } from "../../monitors/field-rules";
import { createCheckTypes } from "../../monitors/types";
import type { CheckType } from "../../monitors/types/check-type";
import { laterCheckTypes } from "../../monitors/types/later-types";
import { ALLOW_PRIVATE } from "../../net/targets";
import { mapKumaMonitor, type MappedMonitor } from "./monitor-fields";
import type { Note } from "./section";

type Row = Record<string, unknown>;
const types = createCheckTypes({ policy: ALLOW_PRIVATE, later: laterCheckTypes() });
const linked = {
  dockerHosts: new Map<number, Row>([
    [1, { id: 1, name: "local", docker_type: "socket", docker_daemon: "/var/run/docker.sock" }],
    [2, { id: 2, name: "remote", docker_type: "tcp", docker_daemon: "https://docker.example.com:2376" }],
    [3, { id: 3, name: "plain", docker_type: "tcp", docker_daemon: "tcp://10.0.0.7" }],
    [4, { id: 4, name: "odd", docker_type: "tcp", docker_daemon: "ssh://docker.example.com" }],
  ]),
  remoteBrowsers: new Map<number, Row>([[1, { id: 1, name: "browserless", url: "ws://b:3000/?token=s3cret-token" }]]),
};
const map = (type: string, extra: Row) => mapKumaMonitor({ id: 1, name: "m", type, interval: 60, timeout: 20, active: 1, ...extra }, [], { tlsExpiryDays: 7, ...linked });
const skipOf = (type: string, extra: Row) => (map(type, extra) as { skip?: Note }).skip;
const notesOf = (type: string, extra: Row) => (map(type, extra) as MappedMonitor).notes.map((n) => n.code);

/** The settings as the type keeps them after its own validation (defaults filled). */
function settingsOf(type: string, extra: Row): Record<string, unknown> {
  const mapped = map(type, extra) as MappedMonitor;
  expect(mapped.change).toBeDefined();
  return resolveFields(mapped.change, undefined, ALLOW_PRIVATE, (f, p, c, s) => (types.of(f.type) as CheckType).validate?.(f, p, c, s)).settings;
}

describe("databases", () => {
  test("PostgreSQL: the URL's parts; node-postgres' sslmode reading; the default query; other options named", () => {
    const pg = (url: string) => settingsOf("postgres", { database_connection_string: url, database_query: "" });
    expect(pg("postgresql://ops%40x:p%3Ass@db.example.com/app?sslmode=require&application_name=kuma")).toMatchObject({
      host: "db.example.com", port: 5432, database: "app", username: "ops@x", password: "p:ss", tls: "verify", query: "SELECT 1",
    });
    expect(pg("postgres://u:p@[::1]:6543/x?sslmode=no-verify")).toMatchObject({ host: "::1", port: 6543, tls: "require" });
    expect(pg("postgres://u:p@h/x?sslmode=require&uselibpqcompat=true").tls).toBe("require");
    expect(pg("postgres://u:p@h/x?ssl=true").tls).toBe("verify");
    expect(pg("postgres://u:p@h/x?sslmode=disable").tls).toBe("disable");
    const notes = (map("postgres", { database_connection_string: "postgres://u:p@h/x?application_name=kuma&sslrootcert=/ca.pem" }) as MappedMonitor).notes;
    expect(notes.map((n) => n.text)).toEqual(["Its connection string options application_name, sslrootcert are not carried over."]);
    // A Unix socket or another host in the options: not what the URL shows.
    expect(skipOf("postgres", { database_connection_string: "postgres://u:p@/x?host=/run/postgresql" })?.code).toBe("monitor.connectionString");
  });

  test("MySQL: Kuma's separate password wins; ssl as mysql2 reads it; conditions are said not to come across", () => {
    const my = (extra: Row) => settingsOf("mysql", { database_query: "SELECT COUNT(*) FROM t", ...extra });
    expect(my({ database_connection_string: "mysql://app:url-pw@db:3307/shop", radius_password: "form-pw" })).toMatchObject({
      host: "db", port: 3307, database: "shop", username: "app", password: "form-pw", tls: "disable", query: "SELECT COUNT(*) FROM t",
    });
    expect(my({ database_connection_string: "mysql://app:pw@db/shop" })).toMatchObject({ port: 3306, password: "pw" });
    expect(my({ database_connection_string: 'mysql://app:pw@db/shop?ssl={"rejectUnauthorized":false}' }).tls).toBe("require");
    expect(my({ database_connection_string: 'mysql://app:pw@db/shop?ssl={"rejectUnauthorized":true}' }).tls).toBe("verify");
    expect(notesOf("mysql", { database_connection_string: "mysql://a:b@db/x", conditions: '[{"type":"expression","variable":"result","operator":"equals","value":"1"}]' })).toEqual(["monitor.conditions"]);
  });

  test("Redis: rediss is TLS, the path is the database, the ACL user and ignore-TLS come across", () => {
    expect(settingsOf("redis", { database_connection_string: "rediss://monitor:pw@cache.example.com:6380/3", ignore_tls: 1 })).toEqual({
      host: "cache.example.com", port: 6380, username: "monitor", password: "pw", tls: true, ignoreTls: true, database: 3, command: "PING", expected: "", expectedMatch: "equals",
    });
    expect(skipOf("redis", { database_connection_string: "http://cache:6379" })?.text).toBe("Its connection string is not one Vigil can read: it needs the form redis://user:password@host:port/database.");
  });

  test("MongoDB: the string as it is; a command Vigil does not run becomes ping with a note; the expected value a keyword", () => {
    expect(settingsOf("mongodb", { database_connection_string: "mongodb+srv://u:p@cluster.example.com/?retryWrites=true", database_query: '{"dbStats":1}', json_path: "$" })).toEqual({
      connectionString: "mongodb+srv://u:p@cluster.example.com/?retryWrites=true", database: "admin", command: '{"dbStats":1}', expected: "",
    });
    const odd = map("mongodb", { database_connection_string: "mongodb://u:p@h/app", database_query: '{"find":"users"}', json_path: "ok", expected_value: "1" }) as MappedMonitor;
    expect(odd.change.settings).toEqual({ connectionString: "mongodb://u:p@h/app", database: "app", expected: "1" });
    expect(odd.notes.map((n) => n.code)).toEqual(["monitor.mongoCommand", "monitor.jsonQueryDropped", "monitor.expectedAsKeyword"]);
    expect(odd.notes[0]!.text).toStartWith('Its command {"find":"users"} is not a read-only command Vigil runs (ping, hello');
  });
});

describe("brokers, gRPC and WebSocket", () => {
  test("gRPC: Kuma's own health call asking for SERVING is the health check of its service; any other call is kept as a unary call", () => {
    const health = { grpc_url: "grpc.example.com:443", grpc_protobuf: "syntax = \"proto3\";\npackage grpc.health.v1;", grpc_service_name: "Health", grpc_method: "Check", grpc_body: '{"service":"orders"}', grpc_enable_tls: 1, keyword: "SERVING" };
    expect(settingsOf("grpc-keyword", { ...health, grpc_metadata: '{"X-Team":"ops"}' })).toMatchObject({
      host: "grpc.example.com", port: 443, mode: "health", service: "orders", tls: true, ignoreTls: false, metadata: [{ name: "x-team", value: "ops" }],
    });
    expect(notesOf("grpc-keyword", health)).toEqual([]);

    // The health call with another keyword, or inverted, keeps Kuma's question as a unary call of the health method.
    const healthProto = 'syntax = "proto3";\npackage grpc.health.v1;\nservice Health { rpc Check(HealthCheckRequest) returns (HealthCheckResponse); }\nmessage HealthCheckRequest { string service = 1; }\nmessage HealthCheckResponse { enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; } ServingStatus status = 1; }';
    const inverted = map("grpc-keyword", { ...health, grpc_protobuf: healthProto, grpc_method: "check", keyword: "NOT_SERVING", invert_keyword: 1 }) as MappedMonitor;
    expect(inverted.notes).toEqual([]);
    expect(settingsOf("grpc-keyword", { ...health, grpc_protobuf: healthProto, grpc_method: "check", keyword: "NOT_SERVING", invert_keyword: 1 })).toMatchObject({
      mode: "unary", proto: healthProto, method: "grpc.health.v1.Health/Check", request: '{"service":"orders"}', keyword: "NOT_SERVING", keywordInvert: true,
    });
    // Without a .proto that describes it, the health check, said.
    expect(notesOf("grpc-keyword", { ...health, keyword: "SERVING", invert_keyword: 1 })).toEqual(["monitor.grpcKeyword"]);
    expect(settingsOf("grpc-keyword", { ...health, keyword: "SERVING", invert_keyword: 1 })).toMatchObject({ mode: "health", service: "orders" });

    const shopProto = 'syntax = "proto3";\npackage shop.v2;\nservice Orders { rpc List(ListRequest) returns (ListReply); rpc Feed(ListRequest) returns (stream ListReply); }\nmessage ListRequest { int32 page_size = 1; }\nmessage ListReply { repeated string ids = 1; }';
    const call = { grpc_url: "10.0.0.5:50051", grpc_protobuf: shopProto, grpc_service_name: "Orders", grpc_method: "list", grpc_body: '{"pageSize":5}', keyword: "ord-1" };
    expect(notesOf("grpc-keyword", call)).toEqual([]);
    expect(settingsOf("grpc-keyword", call)).toEqual({
      host: "10.0.0.5", port: 50051, mode: "unary", service: "", proto: shopProto, method: "shop.v2.Orders/List", request: '{"pageSize":5}', keyword: "ord-1", keywordInvert: false,
      tls: false, ignoreTls: false, metadata: [],
    });
    // A call Vigil cannot make (a streaming method, a request that does not fit, no .proto): the health check of its service, said.
    for (const odd of [{ grpc_method: "Feed" }, { grpc_body: '{"page":"x"}' }, { grpc_protobuf: "package shop.v2;" }]) {
      const fallback = map("grpc-keyword", { ...call, ...odd, grpc_metadata: "[1]" }) as MappedMonitor;
      expect(fallback.change.settings).toMatchObject({ host: "10.0.0.5", port: 50051, mode: "health", service: "shop.v2.Orders", tls: false, metadata: [] });
      expect(fallback.notes.map((n) => n.text)).toEqual([
        `Kuma called shop.v2.Orders/${odd.grpc_method ?? "list"} and looked for its keyword in the reply; Vigil asks the server's standard health service (grpc.health.v1) about shop.v2.Orders instead.`,
        "Its metadata is not a JSON object of text values and is not carried over.",
      ]);
    }
    expect(skipOf("grpc-keyword", { grpc_url: "https://grpc.example.com/x" })?.code).toBe("monitor.grpcAddress");
  });

  test("MQTT: the scheme in Kuma's host field, the WebSocket path, a JSON query as Vigil's assertion", () => {
    expect(settingsOf("mqtt", { hostname: "wss://broker.example.com", port: 8084, mqtt_websocket_path: "mqtt-ws", mqtt_topic: "a/#", mqtt_check_type: "json-query", json_path: "state", expected_value: "up" })).toEqual({
      protocol: "wss", host: "broker.example.com", port: 8084, path: "/mqtt-ws", username: "", password: "", topic: "a/#", keyword: "", jsonPath: '$.state == "up"', ignoreTls: false,
    });
    expect(settingsOf("mqtt", { hostname: "broker", mqtt_topic: "t", mqtt_check_type: null, mqtt_success_message: "ok" })).toMatchObject({ protocol: "mqtt", port: 1883, keyword: "ok", path: "/mqtt" });
    expect(skipOf("mqtt", { hostname: "http://broker", mqtt_topic: "t" })?.code).toBe("monitor.mqttScheme");
    expect(skipOf("mqtt", { hostname: "broker", mqtt_topic: "t", mqtt_check_type: "json-query", json_path: "" })?.code).toBe("monitor.jsonQueryEmpty");
  });

  test("WebSocket: headers and basic auth, the first subprotocol; what Kuma accepted beyond the upgrade is said", () => {
    const ws = map("websocket-upgrade", {
      url: "wss://live.example.com/socket", headers: '{"X-Key":"k","Sec-WebSocket-Protocol":"x"}', auth_method: "basic", basic_auth_user: "u", basic_auth_pass: "p",
      ws_subprotocol: "v2.live, v1.live", ws_ignore_sec_websocket_accept_header: 1, accepted_statuscodes_json: '["1000","1001"]',
    }) as MappedMonitor;
    expect(ws.change.settings).toEqual({ url: "wss://live.example.com/socket", headers: [{ name: "X-Key", value: "k" }, { name: "Authorization", value: `Basic ${btoa("u:p")}` }], subprotocol: "v2.live" });
    expect(ws.notes.map((n) => n.code)).toEqual(["monitor.wsReservedHeader", "monitor.wsSubprotocols", "monitor.wsAcceptHeader", "monitor.wsCloseCodes"]);
    expect(settingsOf("websocket-upgrade", { url: "ws://h/ws", accepted_statuscodes_json: '["1000"]' })).toMatchObject({ url: "ws://h/ws", subprotocol: "" });
  });
});

describe("mail, SNMP, NTP, containers, browser, manual", () => {
  test("SMTP: Kuma's three security choices; none chosen is opportunistic STARTTLS, which Vigil requires; port 25 by default", () => {
    const sec = (smtp_security: unknown) => settingsOf("smtp", { hostname: "mx.example.com", smtp_security }).security;
    expect([sec("secure"), sec("starttls"), sec("nostarttls")]).toEqual(["tls", "starttls", "none"]);
    expect(settingsOf("smtp", { hostname: "mx.example.com", smtp_security: "secure", port: 465 })).toMatchObject({ host: "mx.example.com", port: 465, username: "", tlsExpiryDays: null });
    expect(settingsOf("smtp", { hostname: "mx.example.com", smtp_security: null }).port).toBe(25);
    expect(notesOf("smtp", { hostname: "mx.example.com", smtp_security: null })).toEqual(["monitor.smtpOpportunistic"]);
  });

  test("SNMP: the community from radius_password, v1 and v3 (noAuthNoPriv, as Kuma), <= and >= on whole numbers", () => {
    expect(settingsOf("snmp", { hostname: "sw1", port: "1161", snmp_version: "1", radius_password: "c0mm", snmp_oid: ".1.3.6.1.2.1.1.5.0", json_path: "$", json_path_operator: "==", expected_value: "sw1" })).toMatchObject({
      host: "sw1", port: 1161, version: "v1", community: "c0mm", oid: "1.3.6.1.2.1.1.5.0", operator: "==", expected: "sw1",
    });
    expect(settingsOf("snmp", { hostname: "sw1", snmp_version: "3", snmp_v3_username: "mon", snmp_oid: "1.3.6.1.2.1.1.3.0", json_path_operator: ">=", expected_value: "100" })).toMatchObject({
      version: "v3", username: "mon", securityLevel: "noAuthNoPriv", operator: ">", expected: "99", port: 161,
    });
    expect(settingsOf("snmp", { hostname: "sw1", snmp_oid: "1.3.6.1.2.1.1.3.0", radius_password: null, expected_value: "" })).toMatchObject({ version: "v2c", community: "public", expected: "" });
    expect(notesOf("snmp", { hostname: "sw1", snmp_oid: "1.3.6.1.2.1.1.3.0", json_path_operator: "<=", expected_value: "5" })).toEqual(["monitor.snmpOperator"]);
    expect(skipOf("snmp", { hostname: "sw1", snmp_oid: "1.3", json_path_operator: "<=", expected_value: "1.5" })?.code).toBe("monitor.jsonOperator");
    expect(skipOf("snmp", { hostname: "sw1", snmp_oid: "1.3", json_path: "$substring($, 0, 5)" })?.code).toBe("monitor.snmpJsonQuery");
  });

  test("NTP: Kuma's failing thresholds as Vigil's highest allowed; its dispersion limit is said not to come across", () => {
    const ntp = map("ntp", { hostname: "pool.ntp.org", ntp_stratum_threshold: 3, ntp_time_offset_threshold: 250, ntp_root_dispersion_threshold: 500 }) as MappedMonitor;
    expect(ntp.change.settings).toEqual({ host: "pool.ntp.org", port: 123, maxStratum: 2, maxOffsetMs: 250 });
    expect(ntp.notes.map((n) => n.text)).toEqual(["Its root dispersion limit of 500 ms is not carried over: Vigil checks the stratum and the clock offset."]);
    expect(settingsOf("ntp", { hostname: "pool.ntp.org" })).toMatchObject({ maxStratum: 4, maxOffsetMs: 1000 });
  });

  test("Docker: Kuma's docker host as the socket or TCP endpoint; https says its certificates stay behind", () => {
    expect(settingsOf("docker", { docker_container: "web", docker_host: 1 })).toMatchObject({ container: "web", endpoint: "socket", socketPath: "/var/run/docker.sock" });
    expect(settingsOf("docker", { docker_container: "web", docker_host: 3 })).toMatchObject({ endpoint: "tcp", host: "10.0.0.7", port: 2375, tls: false });
    const remote = map("docker", { docker_container: "web", docker_host: 2 }) as MappedMonitor;
    expect(remote.change.settings).toEqual({ container: "web", endpoint: "tcp", host: "docker.example.com", port: 2376, tls: true });
    expect(remote.notes.map((n) => n.code)).toEqual(["monitor.dockerTls"]);
    expect(skipOf("docker", { docker_container: "web", docker_host: 9 })?.code).toBe("monitor.dockerHostMissing");
    expect(skipOf("docker", { docker_container: "web", docker_host: 4 })?.text).toContain('"odd"');
  });

  test("real browser: the URL; a remote browser is named (never its URL, which holds a token); manual: its state is said", () => {
    const page = map("real-browser", { url: "https://shop.example.com/", remote_browser: 1 }) as MappedMonitor;
    expect(page.change.settings).toEqual({ url: "https://shop.example.com/" });
    expect(page.notes.map((n) => n.text)).toEqual(['Kuma ran it in the remote browser "browserless"; Vigil runs it in its own Chromium.']);
    expect(JSON.stringify(page.notes)).not.toContain("s3cret-token");
    expect(settingsOf("manual", { manual_status: null })).toEqual({});
    expect(notesOf("manual", { manual_status: 1 })).toEqual(["monitor.manualState"]);
  });

  test("SQL Server and Kuma's other types Vigil lacks stay out, saying so", () => {
    expect(skipOf("sqlserver", { database_connection_string: "Server=db;Password=x" })?.text).toBe("Vigil has no sqlserver check yet.");
    expect(skipOf("rabbitmq", {})?.code).toBe("monitor.noCheck");
  });
});
