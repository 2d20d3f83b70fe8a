import { fork, type ChildProcess } from 'child_process';
import { join } from 'path';

export interface RequestStats {
	requests: number;
	bytes: number;
	queries: number;
	commits: number;
	puts: number;
	rateLimited: number;
}

/** The sandbox child process and its small IPC protocol. */
export class SandboxProcess {
	private nextId = 0;
	private readonly pending = new Map<number, (message: any) => void>();

	private constructor(
		private readonly child: ChildProcess,
		readonly url: string,
	) {
		child.on('message', (message: any) => {
			this.pending.get(message.id)?.(message);
			this.pending.delete(message.id);
		});
	}

	static async start(): Promise<SandboxProcess> {
		const child = fork(join(__dirname, 'sandboxProcess.js'), [], { stdio: 'inherit' });
		const url = await new Promise<string>((resolve, reject) => {
			child.once('message', (message: any) => resolve(message.ready));
			child.once('error', reject);
			child.once('exit', (code) => reject(new Error(`The sandbox process exited (${code})`)));
		});
		return new SandboxProcess(child, url);
	}

	private async call<T>(cmd: string, args?: object): Promise<T> {
		const id = ++this.nextId;
		return await new Promise<T>((resolve, reject) => {
			this.pending.set(id, (message) =>
				message.error ? reject(new Error(message.error)) : resolve(message.result),
			);
			this.child.send({ id, cmd, args });
		});
	}

	mark = () => this.call<object>('mark');
	stats = () => this.call<RequestStats>('stats');
	content = (dataSourceId: number, key: string) =>
		this.call<{ entries: number; distinctKeys: number }>('content', { dataSourceId, key });

	stop(): void {
		this.child.disconnect();
	}
}
