using System.Text.Json.Nodes;

namespace StoreSuppliers.Tests;

/// <summary>A store of the demo account of its own, connected to a fresh sandbox supplier account, with one product imported.</summary>
public sealed record Shop(string StoreId, string ConnectionId, string SupplierAccountId, string ProductId, string VariantId, string SupplierProductId)
{
    public string GroupKey => $"supplier:{ConnectionId}";

    /// <summary>The supplier account's test key: a second connection of the store (the sandbox in test mode).</summary>
    public string TestKey { get; init; } = "";

    public static StoreOrderDestination UsAddress => new()
    {
        Name = "Ada Lovelace",
        Line1 = "12 Analytical Street",
        City = "Springfield",
        PostalCode = "62701",
        Country = "US",
    };

    public static async Task<Shop> OpenAsync(ServiceFixture svc, StoreClient store, long balanceMinor = 10_000_000)
    {
        var created = await store.Stores.CreateAsync(new CreateStoreRequest { Name = "dotnet test store", Currency = "USD" });
        var (accountId, liveKey, testKey) = await svc.Sandbox.AccountKeysAsync(balanceMinor);
        var connection = await store.Suppliers.Connections.ConnectAsync(created.Id, new ConnectSupplierRequest
        {
            SupplierKey = "sandbox",
            Mode = SupplierConnectionMode.Live,
            Credentials = new JsonObject { ["apiKey"] = liveKey },
        });
        SupplierProduct? chosen = null;
        await foreach (var p in store.Suppliers.Products.SearchAutoPagingAsync(created.Id, connection.Id, new SearchSupplierProductsQuery { PageSize = 50 }))
        {
            var v = p.Variants[0];
            if (p.ShipsTo.Contains("US") && v.Available && v.Stock >= 200)
            {
                chosen = p;
                break;
            }
        }
        Assert.NotNull(chosen);
        var imported = await store.Suppliers.Imports.ImportAsync(created.Id, connection.Id, new ImportSupplierProductsRequest
        {
            Products = { new ImportSupplierProductsRequestProduct { SupplierProductId = chosen.Id, VariantIds = [chosen.Variants[0].Id] } },
        });
        Assert.Equal(201, imported.StatusCode);
        var product = imported.Result!.Products.Single();
        return new Shop(created.Id, connection.Id, accountId, product.Id, product.Variants[0].Id, chosen.Id) { TestKey = testKey };
    }

    public Task<StoreOrder> PlaceOrderAsync(StoreClient store, CancellationToken cancellationToken = default) =>
        store.Orders.CreateAsync(StoreId, new CreateStoreOrderRequest
        {
            Items = { new CreateStoreOrderRequestItem { ProductId = ProductId, VariantId = VariantId, Quantity = 1 } },
            Destination = UsAddress,
            PaymentMethod = PaymentMethod.Manual,
        }, cancellationToken: cancellationToken);
}
