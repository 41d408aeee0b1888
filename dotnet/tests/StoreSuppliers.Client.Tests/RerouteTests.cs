using System.Text.Json.Nodes;

namespace StoreSuppliers.Tests;

/// <summary>
/// Backup suppliers as a C# program uses them: a link's alternates (update, the view with cost and stock, a bad one
/// refused), the connection's reroute rule, and RerouteAsync (a pause that stands throws; rerouted answers the
/// cancelled order, whose Rerouted() entry names the new one; not paused is InvalidStateException).
/// </summary>
[Collection("service")]
public sealed class RerouteTests(ServiceFixture svc)
{
    /// <summary>A shop whose orders stop with costAboveLimit before anything is sent (its rule reroutes on nothing), and a backup connection.</summary>
    private static async Task<(Shop Shop, string BackupId)> BackedShopAsync(ServiceFixture svc, StoreClient store)
    {
        var shop = await Shop.OpenAsync(svc, store);
        await store.Suppliers.Connections.ChangeAutomationAsync(shop.StoreId, shop.ConnectionId, new ChangeSupplierAutomationRequest
        {
            CostLimit = new Money { AmountMinor = 1, Currency = "USD" },
            Reroute = new SupplierConnectionAutomationReroute { Reasons = [], MaxCostIncreasePercent = 10 },
        });
        var backup = await store.Suppliers.Connections.ConnectAsync(shop.StoreId, new ConnectSupplierRequest
        {
            SupplierKey = "sandbox",
            Mode = SupplierConnectionMode.Test,
            Credentials = new JsonObject { ["apiKey"] = shop.TestKey },
        });
        return (shop, backup.Id);
    }

    [Fact]
    public async Task Alternates_on_a_link_and_the_reroute_rule()
    {
        using var store = svc.Client();
        var (shop, backupId) = await BackedShopAsync(svc, store);
        var backup = (await store.Suppliers.Connections.ListAsync(shop.StoreId)).Single(c => c.Id == backupId);
        Assert.Equal([SupplierConnectionAutomationRerouteReason.VariantUnavailable, SupplierConnectionAutomationRerouteReason.DestinationUnsupported, SupplierConnectionAutomationRerouteReason.CostAboveLimit], backup.Automation.Reroute.Reasons);
        Assert.Equal(10, backup.Automation.Reroute.MaxCostIncreasePercent);
        var ruled = await store.Suppliers.Connections.ChangeAutomationAsync(shop.StoreId, backupId, new ChangeSupplierAutomationRequest
        {
            Reroute = new SupplierConnectionAutomationReroute { Reasons = [SupplierConnectionAutomationRerouteReason.SupplierRefused], MaxCostIncreasePercent = 25 },
        });
        Assert.Equal((SupplierConnectionAutomationRerouteReason.SupplierRefused, 25), (Assert.Single(ruled.Automation.Reroute.Reasons), ruled.Automation.Reroute.MaxCostIncreasePercent));

        var link = Assert.Single((await store.Suppliers.Links.ListAsync(shop.StoreId)).Items);
        var variant = link.Variants[0];
        var alternate = new CreateProductLinkRequestAlternate { StoreVariantId = variant.StoreVariantId, ConnectionId = backupId, SupplierProductId = link.SupplierProductId, SupplierVariantId = variant.SupplierVariantId };
        var updated = await store.Suppliers.Links.UpdateAsync(shop.StoreId, link.Id, new UpdateProductLinkRequest { Alternates = [alternate] });
        var shown = Assert.Single(updated.Variants[0].Alternates);
        Assert.Equal((backupId, variant.SupplierVariantId, variant.CostMinor, "USD", true), (shown.ConnectionId, shown.SupplierVariantId, shown.CostMinor, shown.Currency, shown.Available));

        // The link's own connection cannot hold its backup: 422 alternateInvalid naming the field, nothing written.
        var refused = await Assert.ThrowsAsync<StoreApiException>(() => store.Suppliers.Links.UpdateAsync(shop.StoreId, link.Id, new UpdateProductLinkRequest
        {
            Alternates = [new CreateProductLinkRequestAlternate { StoreVariantId = variant.StoreVariantId, ConnectionId = shop.ConnectionId, SupplierProductId = link.SupplierProductId, SupplierVariantId = variant.SupplierVariantId }],
        }));
        Assert.Equal((422, "alternateInvalid", "body/alternates/0/connectionId"), (refused.StatusCode, refused.Code, refused.Details.Single().Field));
        Assert.Single(Assert.Single((await store.Suppliers.Links.ListAsync(shop.StoreId)).Items).Variants[0].Alternates);

        var emptied = await store.Suppliers.Links.UpdateAsync(shop.StoreId, link.Id, new UpdateProductLinkRequest { Alternates = [] });
        Assert.Empty(emptied.Variants[0].Alternates);
    }

    [Fact]
    public async Task RerouteAsync_throws_while_the_pause_stands_and_answers_the_rerouted_order()
    {
        using var store = svc.Client();
        var (shop, backupId) = await BackedShopAsync(svc, store);
        var link = Assert.Single((await store.Suppliers.Links.ListAsync(shop.StoreId)).Items);
        await store.Suppliers.Links.UpdateAsync(shop.StoreId, link.Id, new UpdateProductLinkRequest
        {
            Alternates = [new CreateProductLinkRequestAlternate { StoreVariantId = link.Variants[0].StoreVariantId, ConnectionId = backupId, SupplierProductId = link.SupplierProductId, SupplierVariantId = link.Variants[0].SupplierVariantId }],
        });
        async Task<SupplierOrder> PausedAsync()
        {
            var order = await shop.PlaceOrderAsync(store);
            var paused = await Assert.ThrowsAsync<SupplierOrderPausedException>(() => store.Suppliers.Orders.SubmitAsync(shop.StoreId, order.Id, shop.GroupKey));
            Assert.Equal(ReviewReason.CostAboveLimit, paused.ReviewReason);
            return paused.SupplierOrder;
        }

        // The backup's automation off: no alternate can take the part, the pause stands and names what was tried.
        await store.Suppliers.Connections.ChangeAutomationAsync(shop.StoreId, backupId, new ChangeSupplierAutomationRequest { Level = SupplierConnectionAutomationLevel.Off });
        var first = await PausedAsync();
        var stands = await Assert.ThrowsAsync<SupplierOrderPausedException>(() => store.Suppliers.Orders.RerouteAsync(shop.StoreId, first.Id));
        Assert.Equal(ReviewReason.CostAboveLimit, stands.ReviewReason);
        Assert.Contains("Alternates tried: 1. sandbox: its automation is off", stands.ReviewMessage);
        Assert.Null(stands.SupplierOrder.Rerouted());
        await store.Suppliers.Connections.ChangeAutomationAsync(shop.StoreId, backupId, new ChangeSupplierAutomationRequest { Level = SupplierConnectionAutomationLevel.Manual });

        var second = await PausedAsync();
        var rerouted = await store.Suppliers.Orders.RerouteAsync(shop.StoreId, second.Id, new RerouteSupplierOrderRequest { ConnectionId = backupId });
        Assert.Equal(SupplierOrderStatus.Cancelled, rerouted.Status);
        var entry = rerouted.Rerouted();
        Assert.NotNull(entry);
        Assert.Equal((second.Id, shop.ConnectionId, backupId, "sandbox", "manual", 0L, "USD"), (entry.FromSupplierOrderId, entry.FromConnectionId, entry.ToConnectionId, entry.ToSupplierKey, entry.By, entry.CostDifferenceMinor, entry.Currency));
        Assert.Equal(ReviewReason.CostAboveLimit, entry.Reason);
        var moved = await store.Suppliers.Orders.GetAsync(shop.StoreId, entry.ToSupplierOrderId);
        Assert.Equal((backupId, second.OrderId), (moved.IntegrationId, moved.OrderId));
        // The first supplier never got an order under that number.
        var received = await svc.Sandbox.ReceivedAsync();
        Assert.Null(received["ordersByNumber"]![second.SupplierOrderNumber]);

        var again = await Assert.ThrowsAsync<InvalidStateException>(() => store.Suppliers.Orders.RerouteAsync(shop.StoreId, second.Id));
        Assert.Equal((409, "invalidState"), (again.StatusCode, again.Code));
    }
}
