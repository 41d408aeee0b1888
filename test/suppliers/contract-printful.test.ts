/** The supplier contract suite against the Printful adapter and the local Printful-format server (test/fakes/printful). */
import { randomBytes } from 'node:crypto';
import { ContractFixture, supplierContract } from './contract';
import { printfulWorld, PrintfulWorld, US } from './printful-support';

function printfulFixture(): ContractFixture {
  const started = printfulWorld();
  let world: PrintfulWorld | undefined;
  void started.then((w) => (world = w));
  return {
    get adapter() {
      return world!.adapter;
    },
    async connect() {
      world = await started;
      return (await world.connect()).ctx;
    },
    refused: (ctx) => ({ ...ctx, credentials: { apiKey: randomBytes(24).toString('base64url') } }),
    freshVariant: async () => (await started).freshVariant(),
    destination: US,
    timeOutNextCreate: async () => void (await (await started).control('POST', '/faults', { timeoutAfterCreateNext: 1 })),
    ordersAtSupplier: async (number) => (await (await started).ordersAt(number)).length,
    close: async () => world?.fake.close(),
  };
}

supplierContract('Printful (local Printful-format server)', printfulFixture);
