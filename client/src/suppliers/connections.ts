import type { Api, RequestOptions } from '../types.js';
import type { Transport } from '../transport.js';

/** Supplier connections of a store: catalogue, connect, test, balance, settings, automation, disconnect; and the store's routing rule. */
export class Connections {
  constructor(private readonly t: Transport) {}

  /** Suppliers the store can connect, with what each can do. */
  async catalogue(storeId: string, options?: RequestOptions): Promise<Api.ListSupplierCatalogue['result']> {
    return (await this.t.call('listSupplierCatalogue', { params: { storeId } }, options)).result;
  }

  /** The store's connections with health and automation; credentials are never returned. */
  async list(storeId: string, options?: RequestOptions): Promise<Api.ListSupplierConnections['result']> {
    return (await this.t.call('listSupplierConnections', { params: { storeId } }, options)).result;
  }

  /** Connects a supplier with its API key; the supplier verifies the key before it is stored. */
  async connect(storeId: string, body: Api.ConnectSupplier['body'], options?: RequestOptions): Promise<Api.ConnectSupplier['result']> {
    return (await this.t.call('connectSupplier', { params: { storeId }, body }, options)).result;
  }

  /** Starts connecting a supplier that uses sign-in; answers the address to send the merchant to. */
  async startSignIn(storeId: string, body: Api.StartSupplierSignIn['body'], options?: RequestOptions): Promise<Api.StartSupplierSignIn['result']> {
    return (await this.t.call('startSupplierSignIn', { params: { storeId }, body }, options)).result;
  }

  async replaceCredentials(
    storeId: string,
    id: string,
    body: Api.ReplaceSupplierCredentials['body'],
    options?: RequestOptions,
  ): Promise<Api.ReplaceSupplierCredentials['result']> {
    return (await this.t.call('replaceSupplierCredentials', { params: { storeId, id }, body }, options)).result;
  }

  /** Checks the connection now and records its health. */
  async test(storeId: string, id: string, options?: RequestOptions): Promise<Api.TestSupplierConnection['result']> {
    return (await this.t.call('testSupplierConnection', { params: { storeId, id } }, options)).result;
  }

  /** Account balance at the supplier, where the supplier reports one. */
  async balance(storeId: string, id: string, options?: RequestOptions): Promise<Api.GetSupplierBalance['result']> {
    return (await this.t.call('getSupplierBalance', { params: { storeId, id } }, options)).result;
  }

  /** What disconnecting would affect: linked products and open supplier orders. */
  async impact(storeId: string, id: string, options?: RequestOptions): Promise<Api.GetDisconnectImpact['result']> {
    return (await this.t.call('getDisconnectImpact', { params: { storeId, id } }, options)).result;
  }

  /** Changes the supplier's own settings. */
  async settings(
    storeId: string,
    id: string,
    body: Api.ChangeSupplierSettings['body'],
    options?: RequestOptions,
  ): Promise<Api.ChangeSupplierSettings['result']> {
    return (await this.t.call('changeSupplierSettings', { params: { storeId, id }, body }, options)).result;
  }

  /** Changes how orders are sent, the limits that stop them, and the reroute rule (`reroute`: reasons, maxCostIncreasePercent). */
  async automation(
    storeId: string,
    id: string,
    body: Api.ChangeSupplierAutomation['body'],
    options?: RequestOptions,
  ): Promise<Api.ChangeSupplierAutomation['result']> {
    return (await this.t.call('changeSupplierAutomation', { params: { storeId, id }, body }, options)).result;
  }

  /** The store's routing rule: how a part's supplier is chosen among its link's primary and alternates (`primary` until set). */
  async routing(storeId: string, options?: RequestOptions): Promise<Api.GetSupplierRouting['result']> {
    return (await this.t.call('getSupplierRouting', { params: { storeId } }, options)).result;
  }

  /** Sets the store's routing rule (`{ routing: { rule: 'lowestLandedCost' } }`, or `fastest` with `maxCostAboveCheapestPercent`); a link's own rule overrides it. */
  async changeRouting(storeId: string, body: Api.ChangeSupplierRouting['body'], options?: RequestOptions): Promise<Api.ChangeSupplierRouting['result']> {
    return (await this.t.call('changeSupplierRouting', { params: { storeId }, body }, options)).result;
  }

  /** Switches the connection on or off. */
  async setEnabled(storeId: string, id: string, enabled: boolean, options?: RequestOptions): Promise<Api.SetSupplierConnectionEnabled['result']> {
    return (await this.t.call('setSupplierConnectionEnabled', { params: { storeId, id }, body: { enabled } }, options)).result;
  }

  /** Disconnects: credentials are deleted; imported products stay as the store's own. */
  async disconnect(storeId: string, id: string, options?: RequestOptions): Promise<Api.DisconnectSupplier['result']> {
    return (await this.t.call('disconnectSupplier', { params: { storeId, id } }, options)).result;
  }
}
