import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, waitFor } from '../support.js';

const execFileAsync = promisify(execFile);

/** One redis-server of the cluster: its port and process. */
export interface ClusterNodeProcess {
  readonly port: number;
  process: ChildProcess | undefined;
}

/** A node as CLUSTER NODES describes it. */
export interface ClusterNodeInfo {
  id: string;
  port: number;
  role: 'master' | 'replica';
  /** The master's id, for a replica. */
  masterId: string | null;
  failed: boolean;
  /** Slot ranges a master serves, e.g. [[0, 5460]]. */
  slots: Array<[number, number]>;
}

/**
 * A throwaway Redis Cluster on loopback: `masters` masters, one replica each,
 * nothing on disk but the nodes' cluster config in a temporary directory, and a
 * short node timeout so a killed master's replica takes over within seconds.
 */
export class PrivateRedisCluster {
  readonly dir = mkdtempSync(join(tmpdir(), 'leadhook-redis-cluster-'));
  readonly nodes: ClusterNodeProcess[] = [];

  constructor(
    private readonly masters = 3,
    private readonly nodeTimeoutMs = 2000,
  ) {}

  /** REDIS_CLUSTER_NODES: every node, as the processes are given it. */
  get nodesSetting(): string {
    return this.nodes.map((n) => `127.0.0.1:${n.port}`).join(',');
  }

  /** Starts the 2 × masters servers and joins them into a cluster whose state is ok. */
  async start(): Promise<void> {
    for (let i = 0; i < this.masters * 2; i++) {
      const port = await freePort();
      const node: ClusterNodeProcess = { port, process: undefined };
      node.process = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(this.dir, `nodes-${port}.conf`),
          '--cluster-node-timeout',
          String(this.nodeTimeoutMs),
          '--dir',
          this.dir,
          '--save',
          '',
          '--appendonly',
          'no',
        ],
        { stdio: 'ignore' },
      );
      this.nodes.push(node);
    }
    for (const node of this.nodes) {
      await waitFor(async () => (await this.command(node.port, 'PING'))[0] === 'PONG' || undefined);
    }
    await execFileAsync('redis-cli', [
      '--cluster',
      'create',
      ...this.nodes.map((n) => `127.0.0.1:${n.port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ]);
    await this.waitUntilOk();
  }

  /** Waits until every live node says cluster_state:ok and agrees on who serves every slot. */
  async waitUntilOk(timeoutMs = 60_000): Promise<void> {
    await waitFor(async () => {
      for (const node of this.nodes) {
        if (!this.running(node)) continue;
        const info = (await this.command(node.port, 'CLUSTER', 'INFO')).join('\n');
        if (!info.includes('cluster_state:ok')) return undefined;
      }
      const masters = (await this.topology()).filter((n) => n.role === 'master' && !n.failed);
      const served = masters.flatMap((m) => m.slots).reduce((sum, [a, b]) => sum + b - a + 1, 0);
      return served === 16384 ? true : undefined;
    }, timeoutMs);
  }

  running(node: ClusterNodeProcess): boolean {
    const child = node.process;
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  /** CLUSTER NODES as seen by a live node. */
  async topology(): Promise<ClusterNodeInfo[]> {
    const live = this.nodes.find((n) => this.running(n));
    if (!live) throw new Error('no cluster node runs');
    return (await this.command(live.port, 'CLUSTER', 'NODES')).map((line) => {
      // <id> <ip:port@cport> <flags> <master> <ping> <pong> <epoch> <link> <slot>...
      const fields = line.split(' ');
      const [id = '', address = '', flagText = '', master = ''] = fields;
      const flags = flagText.split(',');
      return {
        id,
        port: Number(address.split('@')[0]?.split(':').pop()),
        role: flags.includes('master') ? ('master' as const) : ('replica' as const),
        masterId: master === '-' ? null : master,
        failed: flags.includes('fail') || flags.includes('fail?'),
        slots: fields
          .slice(8)
          .filter((s) => !s.startsWith('['))
          .map((s) => {
            const [a, b] = s.split('-').map(Number);
            return [a ?? 0, b ?? a ?? 0] as [number, number];
          }),
      };
    });
  }

  /** The port of the master serving `slot`. */
  async masterOfSlot(slot: number): Promise<number> {
    const master = (await this.topology()).find(
      (n) => n.role === 'master' && !n.failed && n.slots.some(([a, b]) => slot >= a && slot <= b),
    );
    if (!master) throw new Error(`no master serves slot ${slot}`);
    return master.port;
  }

  /** The hash slot of `key` (CLUSTER KEYSLOT). */
  async slotOf(key: string): Promise<number> {
    const live = this.nodes.find((n) => this.running(n));
    if (!live) throw new Error('no cluster node runs');
    return Number((await this.command(live.port, 'CLUSTER', 'KEYSLOT', key))[0]);
  }

  /** Keys a node holds matching `pattern` (its own slots only). */
  async keysOn(port: number, pattern: string): Promise<string[]> {
    return await this.command(port, 'KEYS', pattern);
  }

  /** SIGKILLs the server on `port`: what it held is gone unless its replica has it. */
  async kill(port: number): Promise<void> {
    const node = this.nodes.find((n) => n.port === port);
    const child = node?.process;
    if (!node || !child || !this.running(node)) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** Kills every server and removes the directory. Safe to call whatever happened before. */
  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((n) => this.kill(n.port)));
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** One command on one node through redis-cli: its reply's lines; none when the node is down. */
  private async command(port: number, ...args: string[]): Promise<string[]> {
    try {
      const { stdout } = await execFileAsync(
        'redis-cli',
        ['-h', '127.0.0.1', '-p', String(port), ...args],
        { timeout: 5000 },
      );
      return stdout.split('\n').filter((line) => line !== '');
    } catch {
      return [];
    }
  }
}
