const LOCAL_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;

/** How far `timeZone` is ahead of UTC at the instant `epochMs`, in milliseconds. */
function zoneOffsetMs(epochMs: number, timeZone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(epochMs));
	const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
	const wallClock = Date.UTC(
		part('year'),
		part('month') - 1,
		part('day'),
		part('hour'),
		part('minute'),
		part('second'),
	);
	return wallClock - Math.floor(epochMs / 1000) * 1000;
}

/**
 * A date-time as epoch milliseconds. n8n's date picker gives a wall-clock time without an offset
 * ("2030-01-31T09:00:00"), meant in the workflow's time zone, not the server's; a value that
 * carries its own offset or "Z" (e.g. from $now) is taken as it is. NaN when it is not a date.
 */
export function parseInTimeZone(value: string, timeZone: string): number {
	const match = LOCAL_DATE_TIME.exec(value.trim());
	if (!match) return new Date(value).getTime();
	const [, year, month, day, hour = '0', minute = '0', second = '0', ms = '0'] = match;
	const asUtc = Date.UTC(
		Number(year),
		Number(month) - 1,
		Number(day),
		Number(hour),
		Number(minute),
		Number(second),
		Number(ms.padEnd(3, '0')),
	);
	const check = new Date(asUtc);
	const rolledOver =
		check.getUTCMonth() !== Number(month) - 1 ||
		check.getUTCDate() !== Number(day) ||
		check.getUTCHours() !== Number(hour) ||
		check.getUTCMinutes() !== Number(minute) ||
		check.getUTCSeconds() !== Number(second);
	if (rolledOver) return NaN; // e.g. month 13 or 31 April, which Date.UTC would carry over
	try {
		// The offset at the wall-clock time read as UTC, corrected once for a DST change in between.
		const first = asUtc - zoneOffsetMs(asUtc, timeZone);
		return asUtc - zoneOffsetMs(first, timeZone);
	} catch {
		return asUtc;
	}
}
