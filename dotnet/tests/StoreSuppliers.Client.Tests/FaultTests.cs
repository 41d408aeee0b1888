namespace StoreSuppliers.Tests;

/// <summary>Tests that inject faults at the sandbox supplier: every fault is cleared after each test.</summary>
[Collection("service")]
public abstract class FaultTests(ServiceFixture svc) : IAsyncLifetime
{
    protected ServiceFixture Svc { get; } = svc;

    public Task InitializeAsync() => Task.CompletedTask;

    public async Task DisposeAsync() => await Svc.Sandbox.ClearFaultsAsync();
}
