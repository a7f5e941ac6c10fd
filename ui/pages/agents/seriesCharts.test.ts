import { expect, test } from "bun:test";
import type { AgentSeries, Sample } from "../../api/agents";
import { buildDetailCharts, type ChartLabels } from "./seriesCharts";

const labels: ChartLabels = {
  cpu: "CPU",
  memory: "Memory",
  max: (l) => `${l} (max)`,
  load1: "1 min",
  load5: "5 min",
  load15: "15 min",
  rx: (n) => `${n} rx`,
  tx: (n) => `${n} tx`,
  disk: "Usage",
};

const series = (step: number): AgentSeries => ({
  range: step ? "24h" : "1h",
  step,
  from: 0,
  to: 3_600_000,
  times: [1_000, 2_000],
  avg: {
    cpu: [10, 20],
    memory: [50, null],
    load1: [1, 2],
    load5: [1, 1],
    load15: [0.5, 0.5],
    "disk:/data": [70, 71],
    "disk:/": [30, 31],
    "disk:/boot": [10, 10],
    "rx:eth0": [100, 200],
    "tx:eth0": [10, 20],
    "rx:wlan0": [1, 2],
    "tx:wlan0": [3, 4],
  },
  max: { cpu: [15, 25], memory: [55, null], "disk:/": [32, 33], "disk:/data": [72, 73], "disk:/boot": [10, 10] },
});

const latest = {
  disks: [{ mountPoint: "/" }, { mountPoint: "/data" }],
  network: [{ name: "wlan0" }, { name: "eth0" }],
} as unknown as Sample;

test("raw samples (1 h): one line per metric, no max", () => {
  const c = buildDetailCharts(series(0), latest, labels);
  expect(c.times).toEqual([1_000, 2_000]);
  expect(c.cpu.map((s) => s.label)).toEqual(["CPU"]);
  expect(c.cpu[0].values).toEqual([10, 20]);
  expect(c.memory[0].values).toEqual([50, null]);
  expect(c.load.map((s) => s.values)).toEqual([[1, 2], [1, 1], [0.5, 0.5]]);
});

test("rollups: a faint max line behind CPU, memory and disks", () => {
  const c = buildDetailCharts(series(60_000), latest, labels);
  expect(c.cpu.map((s) => s.label)).toEqual(["CPU", "CPU (max)"]);
  expect(c.cpu[1]).toMatchObject({ values: [15, 25], faint: true });
  expect(c.disks[0].series[1].values).toEqual([32, 33]);
  expect(c.load).toHaveLength(3);
});

test("disks and interfaces follow the newest sample's order, then the rest", () => {
  const c = buildDetailCharts(series(0), latest, labels);
  expect(c.disks.map((d) => d.mountPoint)).toEqual(["/", "/data", "/boot"]);
  expect(c.disks[1].series[0].values).toEqual([70, 71]);
  expect(c.network.map((s) => s.label)).toEqual(["wlan0 rx", "wlan0 tx", "eth0 rx", "eth0 tx"]);
  expect(c.network[2].values).toEqual([100, 200]);
});

test("a disk of the newest sample has a chart even when the range holds no data for it", () => {
  const c = buildDetailCharts({ range: "7d", step: 3_600_000, from: 0, to: 7 * 86_400_000, times: [], avg: {}, max: {} }, latest, labels);
  expect(c.disks.map((d) => d.mountPoint)).toEqual(["/", "/data"]);
  expect(c.disks[0].series[0].values).toEqual([]);
});

test("no newest sample and an empty series give empty charts", () => {
  const c = buildDetailCharts({ range: "1h", step: 0, from: 0, to: 3_600_000, times: [], avg: {}, max: {} }, null, labels);
  expect(c.cpu[0].values).toEqual([]);
  expect(c.disks).toEqual([]);
  expect(c.network).toEqual([]);
});
