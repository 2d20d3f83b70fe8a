import type { IExecuteFunctions, INode, INodeParameterResourceLocator } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The organization id of an `organization` locator value (or a plain id), refused unless numeric. */
export function organizationIdFrom(
	node: INode,
	locator: INodeParameterResourceLocator | string | number | undefined,
	itemIndex?: number,
): number {
	const value = String(
		(typeof locator === 'object' && locator !== null ? locator.value : locator) ?? '',
	).trim();
	if (!/^\d+$/.test(value)) {
		throw new NodeOperationError(
			node,
			value ? `Organization: "${value}" is not an id` : 'No organization given',
			{
				itemIndex,
				description:
					'Pick the organization from the list, or give its id as a whole number (App → Get Many shows the organizationId of each app).',
			},
		);
	}
	return Number(value);
}

/** The organization id of this item's `organization` locator, refused unless numeric. */
export function readOrganizationId(this: IExecuteFunctions, itemIndex: number): number {
	return organizationIdFrom(
		this.getNode(),
		this.getNodeParameter('organization', itemIndex) as INodeParameterResourceLocator,
		itemIndex,
	);
}
