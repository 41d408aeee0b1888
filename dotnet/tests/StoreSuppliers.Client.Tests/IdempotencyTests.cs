using System.Collections.Concurrent;

namespace StoreSuppliers.Tests;

/// <summary>
/// Creates and money actions carry an Idempotency-Key, made once per call and the same on each retry: a store order
/// whose answer is lost on the way back is sent again and made once (issue 56, item 5), against the real service.
/// </summary>
[Collection("service")]
public sealed class IdempotencyTests(ServiceFixture svc) : FaultTests(svc)
{
    /// <summary>Passes requests on unchanged, but drops the first answer to a POST on <c>path</c> once it has arrived.</summary>
    private sealed class LosingHandler(string path) : DelegatingHandler(new SocketsHttpHandler())
    {
        private int _lost;

        public ConcurrentQueue<string?> Keys { get; } = new();

        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            var posted = request.Method == HttpMethod.Post && request.RequestUri!.AbsolutePath == path;
            if (posted) Keys.Enqueue(request.Headers.TryGetValues("Idempotency-Key", out var v) ? v.Single() : null);
            var response = await base.SendAsync(request, cancellationToken);
            if (!posted || Interlocked.Increment(ref _lost) > 1) return response;
            await response.Content.ReadAsByteArrayAsync(cancellationToken);
            response.Dispose();
            throw new HttpRequestException("The response ended prematurely.", new IOException("connection reset"));
        }
    }

    private StoreClient ClientThrough(DelegatingHandler handler) =>
        new(new StoreClientOptions { ApiKey = Svc.ApiKey, BaseUrl = Svc.BaseUrl, HttpClient = new HttpClient(handler) { Timeout = Timeout.InfiniteTimeSpan } });

    [Fact]
    public async Task A_store_order_whose_answer_was_lost_is_sent_again_with_the_same_key_and_made_once()
    {
        using var store = Svc.Client();
        var shop = await Shop.OpenAsync(Svc, store);
        var handler = new LosingHandler($"/api/store-orders/{shop.StoreId}");
        using var client = ClientThrough(handler);
        var order = await shop.PlaceOrderAsync(client);
        var keys = handler.Keys.ToList();
        Assert.Equal(2, keys.Count);
        Assert.False(string.IsNullOrEmpty(keys[0]));
        Assert.Equal(keys[0], keys[1]);
        var orders = await store.Orders.ListAsync(shop.StoreId);
        Assert.Equal(order.Id, Assert.Single(orders.Items).Id);
    }

    [Fact]
    public async Task Two_calls_are_two_keys_and_a_key_of_your_own_is_sent_as_given()
    {
        using var store = Svc.Client();
        var shop = await Shop.OpenAsync(Svc, store);
        var a = await shop.PlaceOrderAsync(store);
        var b = await shop.PlaceOrderAsync(store);
        Assert.NotEqual(a.Id, b.Id);
        var request = new CreateStoreOrderRequest
        {
            Items = { new CreateStoreOrderRequestItem { ProductId = shop.ProductId, VariantId = shop.VariantId, Quantity = 2 } },
            Destination = Shop.UsAddress,
            PaymentMethod = PaymentMethod.Manual,
        };
        var own = new RequestOptions { IdempotencyKey = $"dotnet-{Guid.NewGuid()}" };
        var c = await store.Orders.CreateAsync(shop.StoreId, request, own);
        var d = await store.Orders.CreateAsync(shop.StoreId, request, own);
        Assert.Equal(c.Id, d.Id);
        Assert.Equal(3, (await store.Orders.ListAsync(shop.StoreId)).Items.Count);
    }
}
