// n8n's community-node lint rules for the n8n package (nodes/ and credentials/), and for the manifest
// the build writes (package/package.json). `npm run lint` runs it with --max-warnings 0.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import tsParser from '@typescript-eslint/parser';
import communityNodes from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

const root = path.dirname(fileURLToPath(import.meta.url));
const { manifest } = createRequire(import.meta.url)('./gulpfile.js');
const recommended = communityNodes.configs.recommended;

/**
 * The check of @n8n/community-nodes/no-credential-reuse (a node may only use credentials its own package
 * declares), made against the manifest the build publishes. The upstream rule reads the package.json
 * nearest to the node file, which here is the service's root manifest, not the n8n package's.
 */
const packagedCredentialNames = () =>
	new Set(
		manifest.n8n.credentials.map((file) => {
			const source = path.join(root, file.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
			const match = /\bname\s*=\s*['"]([^'"]+)['"]/.exec(fs.readFileSync(source, 'utf8'));
			return match ? match[1] : '';
		}),
	);

const credentialsInPackage = {
	meta: {
		type: 'problem',
		docs: { description: 'Nodes use only credentials declared in the published package manifest' },
		messages: {
			notInPackage:
				'Node references credential "{{ name }}", which the package manifest (gulpfile.js, n8n.credentials) does not declare',
		},
		schema: [],
	},
	create(context) {
		if (!context.filename.endsWith('.node.ts')) return {};
		const allowed = packagedCredentialNames();
		return {
			'PropertyDefinition[key.name="description"] > ObjectExpression > Property[key.name="credentials"] > ArrayExpression > ObjectExpression > Property[key.name="name"] > Literal'(
				node,
			) {
				if (!allowed.has(node.value)) context.report({ node, messageId: 'notInPackage', data: { name: node.value } });
			},
		};
	},
};

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'server/**', 'bench/**', 'test/**', 'docs/**'] },
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		languageOptions: {
			parser: tsParser,
			parserOptions: { ecmaVersion: 'latest', sourceType: 'module' },
		},
		plugins: {
			'n8n-nodes-base': n8nNodesBase,
			...recommended.plugins,
			'store-suppliers': { rules: { 'credentials-in-package': credentialsInPackage } },
		},
		rules: {
			...n8nNodesBase.configs.community.rules,
			...n8nNodesBase.configs.credentials.rules,
			...n8nNodesBase.configs.nodes.rules,
			...recommended.rules,
			// Meant for n8n's own documentation slugs: it asks for camelCase, which no URL is, while
			// cred-class-field-documentation-url-not-http-url and credential-documentation-url ask community
			// credentials for a URL. n8n's community node starter switches it off the same way.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			// Replaced by the same check against the published manifest (see credentialsInPackage above).
			'@n8n/community-nodes/no-credential-reuse': 'off',
			'store-suppliers/credentials-in-package': 'error',
		},
	},
	{
		files: ['package/package.json'],
		languageOptions: {
			parser: tsParser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
		plugins: { 'n8n-nodes-base': n8nNodesBase, ...recommended.plugins },
		rules: {
			...n8nNodesBase.configs.community.rules,
			'@n8n/community-nodes/package-name-convention': 'error',
			'@n8n/community-nodes/ai-node-package-json': 'error',
		},
	},
];
