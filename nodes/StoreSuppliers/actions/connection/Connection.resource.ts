import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../helpers';
import { storeRLC } from '../locator';
import * as connect from './connect.operation';
import * as disconnect from './disconnect.operation';
import * as getAll from './getAll.operation';
import * as getBalance from './getBalance.operation';
import * as getCatalogue from './getCatalogue.operation';
import * as getImpact from './getImpact.operation';
import * as getRouting from './getRouting.operation';
import * as replaceCredentials from './replaceCredentials.operation';
import * as setEnabled from './setEnabled.operation';
import * as startSignIn from './startSignIn.operation';
import * as test from './test.operation';
import * as updateAutomation from './updateAutomation.operation';
import * as updateRouting from './updateRouting.operation';
import * as updateSettings from './updateSettings.operation';

export const operations = {
  connect,
  disconnect,
  getAll,
  getBalance,
  getCatalogue,
  getImpact,
  getRouting,
  replaceCredentials,
  setEnabled,
  startSignIn,
  test,
  updateAutomation,
  updateRouting,
  updateSettings,
} satisfies Record<string, OperationModule>;

export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['connection'] } },
    options: [
      {
        name: 'Connect',
        value: 'connect',
        description: "Connect a supplier with the merchant's API key at the supplier",
        action: 'Connect a supplier',
      },
      {
        name: 'Disconnect',
        value: 'disconnect',
        description: "Delete the credentials; imported products stay as the store's own",
        action: 'Disconnect a supplier',
      },
      {
        name: 'Enable or Disable',
        value: 'setEnabled',
        description: 'Switch a connection on or off',
        action: 'Enable or disable a connection',
      },
      {
        name: 'Get Balance',
        value: 'getBalance',
        description: 'Get the account balance at the supplier',
        action: 'Get the balance at a supplier',
      },
      {
        name: 'Get Catalogue',
        value: 'getCatalogue',
        description: 'List the suppliers the store can connect, with what each can do',
        action: 'Get the supplier catalogue',
      },
      {
        name: 'Get Disconnect Impact',
        value: 'getImpact',
        description: 'Get the linked products and open supplier orders a disconnect would affect',
        action: 'Get the impact of disconnecting',
      },
      {
        name: 'Get Many',
        value: 'getAll',
        description: "Get many of the store's connections, with health and automation",
        action: 'Get many connections',
      },
      {
        name: 'Get Routing',
        value: 'getRouting',
        description: "Get the store's routing rule: how a part's supplier is chosen among a link's primary and alternates",
        action: 'Get the routing rule of the store',
      },
      {
        name: 'Replace Credentials',
        value: 'replaceCredentials',
        description: "Replace a connection's API key at the supplier",
        action: 'Replace the credentials of a connection',
      },
      {
        name: 'Start Sign-In',
        value: 'startSignIn',
        description: 'Start connecting a supplier that uses sign-in; answers the address to send the merchant to',
        action: 'Start a supplier sign in',
      },
      {
        name: 'Test',
        value: 'test',
        description: 'Check a connection now and record its health',
        action: 'Test a connection',
      },
      {
        name: 'Update Automation',
        value: 'updateAutomation',
        description: 'Change how orders are sent and the limits that stop them',
        action: 'Update the automation of a connection',
      },
      {
        name: 'Update Routing',
        value: 'updateRouting',
        description: "Set the store's routing rule (a product link's own rule overrides it)",
        action: 'Update the routing rule of the store',
      },
      {
        name: 'Update Settings',
        value: 'updateSettings',
        description: "Change the supplier's own settings of a connection",
        action: 'Update the settings of a connection',
      },
    ],
    default: 'getAll',
  },
  { ...storeRLC, displayOptions: { show: { resource: ['connection'] } } },
  ...getCatalogue.description,
  ...getAll.description,
  ...connect.description,
  ...startSignIn.description,
  ...replaceCredentials.description,
  ...test.description,
  ...getBalance.description,
  ...getImpact.description,
  ...updateSettings.description,
  ...updateAutomation.description,
  ...getRouting.description,
  ...updateRouting.description,
  ...setEnabled.description,
  ...disconnect.description,
];
