namespace StoreSuppliers.Tests;

/// <summary>The connection routes, as a C# program calls them: typed bodies in, typed connections out.</summary>
[Collection("service")]
public sealed class ConnectionTests(ServiceFixture svc)
{
    [Fact]
    public async Task Test_balance_automation_enabled_sign_in_impact_and_disconnect()
    {
        using var store = svc.Client();
        var shop = await Shop.OpenAsync(svc, store, balanceMinor: 123_456);

        var tested = await store.Suppliers.Connections.TestAsync(shop.StoreId, shop.ConnectionId);
        Assert.Equal(SupplierConnectionHealthStatus.Healthy, tested.Health!.Status);
        var balance = await store.Suppliers.Connections.GetBalanceAsync(shop.StoreId, shop.ConnectionId);
        Assert.Equal((123_456L, "USD"), (balance.AmountMinor, balance.Currency));

        var automated = await store.Suppliers.Connections.ChangeAutomationAsync(shop.StoreId, shop.ConnectionId, new ChangeSupplierAutomationRequest
        {
            Level = SupplierConnectionAutomationLevel.Automatic,
            CostLimit = new Money { AmountMinor = 5_000, Currency = "USD" },
            ExcludedCountries = ["FR"],
        });
        Assert.Equal(SupplierConnectionAutomationLevel.Automatic, automated.Automation.Level);
        Assert.Equal(5_000, automated.Automation.CostLimit!.AmountMinor);
        Assert.Equal(["FR"], automated.Automation.ExcludedCountries);

        var off = await store.Suppliers.Connections.SetEnabledAsync(shop.StoreId, shop.ConnectionId, new SetSupplierConnectionEnabledRequest { Enabled = false });
        Assert.False(off.Enabled);
        Assert.False(Assert.Single(await store.Suppliers.Connections.ListAsync(shop.StoreId)).Enabled);
        Assert.True((await store.Suppliers.Connections.SetEnabledAsync(shop.StoreId, shop.ConnectionId, new SetSupplierConnectionEnabledRequest { Enabled = true })).Enabled);

        var signIn = await store.Suppliers.Connections.StartSignInAsync(shop.StoreId, new StartSupplierSignInRequest { SupplierKey = "sandbox-signin", Mode = SupplierConnectionMode.Live });
        Assert.StartsWith("http", signIn.AuthorizationUrl);
        Assert.True(signIn.ExpiresAt > DateTimeOffset.UtcNow);

        var impact = await store.Suppliers.Connections.GetDisconnectImpactAsync(shop.StoreId, shop.ConnectionId);
        Assert.Equal(1, impact.LinkedProducts);
        var gone = await store.Suppliers.Connections.DisconnectAsync(shop.StoreId, shop.ConnectionId);
        Assert.True(gone.Disconnected);
        Assert.Empty(await store.Suppliers.Connections.ListAsync(shop.StoreId));
        // The imported product stays the store's own.
        Assert.Equal(shop.ProductId, (await store.Products.GetAsync(shop.StoreId, shop.ProductId)).Id);
    }
}
