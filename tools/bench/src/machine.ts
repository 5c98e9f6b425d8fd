import { cpus, freemem, loadavg, totalmem } from "node:os";

/** The machine a run happened on. */
export interface MachineInfo {
  cpuModel: string;
  cores: number;
  ramGiB: number;
  freeRamGiB: number;
  node: string;
  platform: string;
  loadAverage: [number, number, number];
}

/** CPU model, logical cores, RAM, Node version and the 1/5/15-minute load average now. */
export function machineInfo(): MachineInfo {
  const c = cpus();
  const [a, b, d] = loadavg();
  return {
    cpuModel: c[0]?.model?.trim() ?? "unknown",
    cores: c.length,
    ramGiB: totalmem() / 2 ** 30,
    freeRamGiB: freemem() / 2 ** 30,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage: [a, b, d],
  };
}
