const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * The number in E.164 form (`+` country code and number, 7 to 15 digits), ignoring the spaces,
 * dots, dashes and brackets people type; undefined when it cannot be one.
 */
export function toE164(value: string): string | undefined {
	const compact = value.trim().replace(/[\s.\-()]/g, '');
	const withPlus = compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
	return E164.test(withPlus) ? withPlus : undefined;
}
