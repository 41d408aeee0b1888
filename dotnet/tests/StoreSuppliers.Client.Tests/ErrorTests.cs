using System.Text.Json.Nodes;

namespace StoreSuppliers.Tests;

/// <summary>Refusals as StoreApiException subclasses a program can branch on, with the service's status, code and message.</summary>
[Collection("service")]
public sealed class ErrorTests(ServiceFixture svc)
{
    [Fact]
    public async Task GetCurrentAsync_describes_the_demo_key_its_owner_plan_and_credits()
    {
        using var store = svc.Client();
        var me = await store.ApiKey.GetCurrentAsync();
        Assert.Equal(svc.Email, me.Owner.Email);
        Assert.Equal("pro", me.Plan.Name.ToString());
        Assert.True(me.Credits.Available > 0);
        Assert.DoesNotContain(svc.ApiKey, me.Key.MaskedKey);
    }

    [Fact]
    public async Task A_revoked_key_gets_UnauthenticatedException_401_at_once_and_never_sees_its_key_in_the_message()
    {
        var session = await svc.SignInAsync();
        var created = await svc.SessionCallAsync(HttpMethod.Post, "/api/api-keys", session, new { name = "dotnet revoked", recordScope = "own" });
        var key = (string)created["result"]!["key"]!;
        var keyId = (string)created["result"]!["apiKey"]!["id"]!;
        var (client, handler) = RecordingHandler.ClientFor(svc.BaseUrl, key);
        using var _ = client;
        Assert.Equal(svc.Email, (await client.ApiKey.GetCurrentAsync()).Owner.Email);

        await svc.SessionCallAsync(HttpMethod.Delete, $"/api/api-keys/{keyId}", session);
        handler.Sent.Clear();
        var e = await Assert.ThrowsAsync<UnauthenticatedException>(() => client.Suppliers.Orders.ListAsync(svc.StoreId));
        Assert.Equal((401, "unauthenticated"), (e.StatusCode, e.Code));
        Assert.False(string.IsNullOrEmpty(e.Message));
        Assert.DoesNotContain(key, e.ToString());
        Assert.Single(handler.Sent);
    }

    [Fact]
    public async Task Not_found_permission_denied_invalid_state_and_validation_each_have_their_exception()
    {
        using var store = svc.Client();
        var missing = await Assert.ThrowsAsync<NotFoundException>(() => store.Suppliers.Orders.GetAsync(svc.StoreId, Guid.NewGuid().ToString()));
        Assert.Equal((404, "notFound"), (missing.StatusCode, missing.Code));

        using var staff = svc.Client(svc.StaffApiKey);
        var denied = await Assert.ThrowsAsync<PermissionDeniedException>(() => staff.Suppliers.Connections.TestAsync(svc.StoreId, svc.ConnectionId));
        Assert.Equal((403, "permissionDenied"), (denied.StatusCode, denied.Code));
        Assert.Contains("suppliers.manage", denied.Message);

        var invalid = await Assert.ThrowsAsync<InvalidRequestException>(() => store.Suppliers.Orders.ListAsync(svc.StoreId, new ListSupplierOrdersQuery { PageSize = 500 }));
        Assert.Equal((400, "validationFailed"), (invalid.StatusCode, invalid.Code));
        Assert.Contains(invalid.Details, d => d.Field is not null && d.Field.Contains("pageSize"));

        var shop = await Shop.OpenAsync(svc, store);
        var order = await shop.PlaceOrderAsync(store);
        var so = await store.Suppliers.Orders.SubmitAsync(shop.StoreId, order.Id, shop.GroupKey, new SubmitOrderPartRequest { PayNow = true });
        Assert.Equal(SupplierOrderPaymentStatus.Paid, so.Payment.Status);
        var conflict = await Assert.ThrowsAsync<InvalidStateException>(() => store.Suppliers.Orders.PayAsync(shop.StoreId, so.Id));
        Assert.Equal(409, conflict.StatusCode);
        Assert.False(string.IsNullOrEmpty(conflict.RequestId) && conflict.Code.Length == 0);
    }

    [Fact]
    public async Task A_free_plan_gets_PlanRequiredException_and_spent_credits_InsufficientCreditsException()
    {
        var (key, _) = await svc.NewFreeDeveloperAsync();
        using var free = svc.Client(key);
        var storeId = (await free.Stores.CreateAsync(new CreateStoreRequest { Name = "free store", Currency = "USD" })).Id;
        var gated = await Assert.ThrowsAsync<PlanRequiredException>(() => free.Suppliers.Connections.ConnectAsync(storeId, new ConnectSupplierRequest
        {
            SupplierKey = "sandbox",
            Mode = SupplierConnectionMode.Live,
            Credentials = new JsonObject { ["apiKey"] = "sbx_live_demo" },
        }));
        Assert.Equal((403, "planRequired"), (gated.StatusCode, gated.Code));
        Assert.IsAssignableFrom<PermissionDeniedException>(gated);

        // Sign-up gives 100 credits and a store product costs one: the 101st is refused with 402.
        var available = (await free.ApiKey.GetCurrentAsync()).Credits.Available;
        CreateStoreProductRequest Product(int n) => new()
        {
            Title = $"Own product {n}",
            Variants = { new CreateStoreProductRequestVariant { Sku = $"OWN-{n}", Title = "One", PriceMinor = 1000, Currency = "USD", Stock = 1 } },
        };
        await Parallel.ForEachAsync(Enumerable.Range(0, (int)available), new ParallelOptions { MaxDegreeOfParallelism = 4 }, async (n, ct) => await free.Products.CreateAsync(storeId, Product(n), cancellationToken: ct));
        var broke = await Assert.ThrowsAsync<InsufficientCreditsException>(() => free.Products.CreateAsync(storeId, Product(-1)));
        Assert.Equal((402, "insufficientCredits"), (broke.StatusCode, broke.Code));
        Assert.Equal(0, (await free.ApiKey.GetCurrentAsync()).Credits.Available);
    }
}
