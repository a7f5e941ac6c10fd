import os from "node:os";
import type { HostInfo, Sample } from "../../server/agents/protocol";
import { osCpuTimes, osMemory, rootDisk } from "./generic";
import {
  cpuUsage, diskUsage, networkRates, parseCpuModel, parseLoadavg, parseMeminfo, parseMounts, parseNetDev,
  parseOsRelease, parseProcStat, parseUptime, procReader, type CpuTimes, type InterfaceCounters,
} from "./linux";

export interface CollectorOptions {
  /** Mount points or devices to report (default: every real file system). */
  disks?: string[];
  /** Interfaces to report (default: all but lo, veth, docker bridges …). */
  interfaces?: string[];
  /** Root of /proc, /etc/os-release and the mount points statfs reads (tests point it at a fixture root). */
  procRoot?: string;
  agentVersion: string;
}

/** Takes samples; CPU and network rates are deltas since the previous sample (the first one primes them). */
export class Collector {
  private prevCpu: CpuTimes;
  private prevNet = new Map<string, InterfaceCounters>();
  private prevTime = Date.now();
  private readonly linux = process.platform === "linux";
  private readonly proc;

  constructor(private readonly options: CollectorOptions) {
    this.proc = procReader(options.procRoot);
    this.prevCpu = this.cpuTimes();
    if (this.linux) for (const c of this.counters()) this.prevNet.set(c.name, c);
  }

  private cpuTimes(): CpuTimes {
    return this.linux ? parseProcStat(this.proc.read("proc/stat")) : osCpuTimes();
  }

  private counters(): InterfaceCounters[] {
    return parseNetDev(this.proc.tryRead("proc/net/dev"), this.options.interfaces);
  }

  sample(): Sample {
    const now = Date.now();
    const cpu = this.cpuTimes();
    const usage = cpuUsage(this.prevCpu, cpu);
    this.prevCpu = cpu;
    const cores = os.cpus().length || 1;
    const model = this.linux ? parseCpuModel(this.proc.tryRead("proc/cpuinfo")) : (os.cpus()[0]?.model ?? "unknown");

    if (!this.linux) {
      const [one, five, fifteen] = os.loadavg();
      return { time: now, cpu: { usage, cores, model }, memory: osMemory(), disks: rootDisk(), network: [], load: { one, five, fifteen } };
    }

    const counters = this.counters();
    const network = networkRates(this.prevNet, counters, (now - this.prevTime) / 1000);
    this.prevNet = new Map(counters.map((c) => [c.name, c]));
    this.prevTime = now;
    const disks = parseMounts(this.proc.tryRead("proc/mounts"), this.options.disks).flatMap((m) => {
      try {
        return [diskUsage(m, this.proc.statfs)];
      } catch {
        return []; // unmounted since, or not readable by this user
      }
    });
    return {
      time: now,
      cpu: { usage, cores, model },
      memory: parseMeminfo(this.proc.read("proc/meminfo")),
      disks,
      network,
      load: parseLoadavg(this.proc.read("proc/loadavg")),
    };
  }

  host(): HostInfo {
    const ips = Object.values(os.networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal)
      .map((a) => a!.address)
      .slice(0, 64);
    return {
      hostname: os.hostname(),
      ips,
      os: this.linux ? parseOsRelease(this.proc.tryRead("etc/os-release")) : `${os.type()} ${os.release()}`,
      kernel: os.release(),
      arch: os.arch(),
      uptime: this.linux ? parseUptime(this.proc.read("proc/uptime")) : os.uptime(),
      agentVersion: this.options.agentVersion,
    };
  }
}
