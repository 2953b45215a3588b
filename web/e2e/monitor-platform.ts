/**
 * A platform of the monitor spec's own: the built server (`dist/main.js serve`, which the
 * default project's web server has just built) on MONITOR_PORT, on a file-backed data directory,
 * so the spec can stop it and start it again with other settings while its database (the jobs'
 * heartbeats among it) stays. Nothing is added to the platform: it runs as an operator runs it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class OwnPlatform {
  private child: ChildProcess | null = null;
  /** The last lines the process wrote, to say why it would not start. */
  private output: string[] = [];

  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  static async create(port: number): Promise<OwnPlatform> {
    return new OwnPlatform(await mkdtemp(join(tmpdir(), 'approva-monitor-e2e-')), port);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the platform with these settings (on top of the e2e defaults) and waits until ready. */
  async start(settings: Record<string, string>): Promise<void> {
    if (this.child) throw new Error('the platform is already running');
    this.output = [];
    const child = spawn(process.execPath, ['dist/main.js', 'serve'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(this.port),
        DATA_DIR: this.dir,
        LOGIN_CAPTCHA: 'off',
        // The gateway's metrics listener has one fixed port: the default platform may hold it.
        METRICS_ENABLED: 'false',
        LOG_LEVEL: 'warn',
        ...settings,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (chunk: Buffer) => {
      this.output.push(...chunk.toString().split('\n').filter(Boolean));
      this.output = this.output.slice(-20);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) {
        this.child = null;
        throw new Error(`the platform exited (${child.exitCode}):\n${this.output.join('\n')}`);
      }
      const ready = await fetch(`${this.url}/api/v1/health/ready`).then(
        (res) => res.ok,
        () => false,
      );
      if (ready) return;
      await sleep(500);
    }
    throw new Error(`the platform was not ready within 120 s:\n${this.output.join('\n')}`);
  }

  /** Stops the platform as an operator does (SIGTERM), and waits until it has exited. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  }

  /** Stops it and removes its data directory. */
  async remove(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}
